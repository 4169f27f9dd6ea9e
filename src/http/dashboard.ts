import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { AppDeps } from '../context.js';
import { packageRoot } from '../paths.js';
import { outside, under } from './gate.js';
import { sessionCookieAuth } from './sessionAuth.js';
import { settingsRouter } from './settings/router.js';
import { SETTINGS_ROUTES } from './settings/routes.js';
import { SyncRuns } from './settings/syncRuns.js';
import { PREP_ROUTES } from './prep/routes.js';
import { scoutRuns } from '../services/prep/index.js';
import type { SettingsRoute } from './settings/route.js';

/** Where `npm run build` puts the client (web/build.ts). */
export const DASHBOARD_DIR = join(packageRoot, 'dist', 'web');

/**
 * No inline script or style, nothing from another origin: the page runs only the bundle this server
 * ships. `img-src data:` is not needed (boards and charts are inline SVG built through the DOM).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The client-side routes (web/main.ts): each serves the same HTML shell. */
const PAGES = ['/', '/games', '/games/:id', '/openings', '/insights', '/study', '/study/:id', '/coaching', '/library', '/library/:slug', '/tournaments', '/prep', '/settings'];

function securityHeaders(res: Response): void {
  res.set({
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    // The sign-in link carries its code in the query: never let it leave in a Referer.
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  });
}

export interface Dashboard {
  /** The settings API, the client's files and its pages. */
  router: Router;
  /** The settings routes, for the OpenAPI document. */
  routes: readonly SettingsRoute[];
  /** Stops a "sync now" in progress. */
  stop(): void;
  /**
   * The dashboard's Not found page (its shell with a 404 status: the client finds no page at the address and
   * says so) for a browser asking for HTML at an unknown address outside the API; false when this is not such a request.
   */
  notFound(req: Request, res: Response): boolean;
}

/** Addresses whose unknown paths answer an API client's JSON {error}, whatever the client accepts. */
const API_SPACE = /^\/(api|fishnet|health|share|\.well-known)(\/|$)/;

/** The local web dashboard: a client of the REST API plus the settings API (not MCP tools). */
export function createDashboard(deps: AppDeps, baseUrl: string): Dashboard {
  const syncRuns = new SyncRuns(deps);
  const routes = [...SETTINGS_ROUTES, ...PREP_ROUTES];
  const router = express.Router();
  // Each part runs only for its own paths (gate.ts), so an API request is not matched against them.
  const settings = express.Router().use(sessionCookieAuth(deps, baseUrl), settingsRouter(SETTINGS_ROUTES, deps, baseUrl, syncRuns));
  router.use(under('/api/v1/settings', settings));
  // Preparation (issue 29): the same session rules and route machinery as the settings API.
  const prep = express.Router().use(sessionCookieAuth(deps, baseUrl), settingsRouter(PREP_ROUTES, deps, baseUrl, syncRuns));
  router.use(under('/api/v1/prep', prep));
  router.use(
    '/assets',
    (_req: Request, res: Response, next: NextFunction) => {
      securityHeaders(res);
      next();
    },
    express.static(join(DASHBOARD_DIR, 'assets'), { index: false, maxAge: 0 }),
  );
  // Read per request only when missing, so a dashboard built after the server started is found.
  let shell: string | null = null;
  const sendShell = (res: Response, status: number) => {
    const file = join(DASHBOARD_DIR, 'index.html');
    if (shell === null && existsSync(file)) shell = readFileSync(file, 'utf8');
    securityHeaders(res);
    res.set('Cache-Control', 'no-store');
    if (shell === null) return void res.status(status === 404 ? 404 : 503).type('text/plain').send('The dashboard is not built: run `npm run build` (or `npm ci`) in the chess-footprint folder.');
    res.status(status).type('html').send(shell);
  };
  const page = (req: Request, res: Response, next: NextFunction) => {
    // `/` also answers API clients with the JSON index; a browser asking for HTML gets the dashboard.
    if (req.accepts(['json', 'html']) !== 'html') return next();
    sendShell(res, 200);
  };
  const pages = express.Router();
  for (const path of PAGES) pages.get(path, page);
  router.use(outside('/api', pages));
  return {
    router,
    routes,
    notFound: (req, res) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || API_SPACE.test(req.path) || req.accepts(['json', 'html']) !== 'html') return false;
      sendShell(res, 404);
      return true;
    },
    stop: () => {
      syncRuns.stop();
      scoutRuns(deps).stop();
    },
  };
}
