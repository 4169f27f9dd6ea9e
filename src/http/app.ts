import express, { type Express, type Request, type Response, type Router } from 'express';
import type { AnyTool } from '../../tools/defineTool.js';
import type { AppDeps } from '../context.js';
import { mcpRouter } from '../mcp/http.js';
import { agentSkillsIndex, apiCatalog, apiCatalogLinkHeader, authMd, coachSkillMd, llmsTxt, serverCard } from './discovery.js';
import { buildOpenApi } from './openapi.js';
import { bodyErrorHandler, restRouter } from './rest.js';
import { shareRouter } from './sharePage.js';
import { createDashboard } from './dashboard.js';

export interface HttpOptions {
  /** Absolute base used in discovery documents and links, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** Extra routers mounted before the 404 handler (the report share page, …). */
  extraRouters?: Router[];
}

/** The whole HTTP surface, derived from the tool list: REST, MCP, OpenAPI and discovery. */
export function createHttpApp(tools: readonly AnyTool[], deps: AppDeps, opts: HttpOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('json spaces', 0);
  const base = opts.baseUrl.replace(/\/$/, '');
  // Documents are pure functions of the registry: build them once.
  const dashboard = createDashboard(deps, base);
  app.locals.onClose = [dashboard.stop];
  const openapi = buildOpenApi(tools, base, dashboard.routes);
  const catalog = apiCatalog(base);
  const card = serverCard(tools, base);
  const skills = agentSkillsIndex(tools, base);
  const skill = coachSkillMd(tools, base);
  const llms = llmsTxt(tools, base);
  const auth = authMd(base);

  // Discovery documents change only with a new version of the server: caches may keep them a few minutes
  // and revalidate with the ETag express computes from the body (If-None-Match → 304).
  const DISCOVERY = ['/', '/openapi.json', '/llms.txt', '/auth.md'];
  app.use((req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && (DISCOVERY.includes(req.path) || req.path.startsWith('/.well-known/'))) {
      res.set('Cache-Control', 'public, max-age=300, must-revalidate');
    }
    next();
  });
  app.get('/openapi.json', (_req, res) => res.json(openapi));
  const catalogHandler = (req: Request, res: Response) => {
    res.set('Link', apiCatalogLinkHeader(base)).type('application/linkset+json');
    if (req.method === 'HEAD') return res.status(200).end();
    res.send(JSON.stringify(catalog));
  };
  app.head('/.well-known/api-catalog', catalogHandler);
  app.get('/.well-known/api-catalog', catalogHandler);
  app.get('/.well-known/mcp.json', (_req, res) => res.json(card));
  app.get('/.well-known/agent-skills/index.json', (_req, res) => res.json(skills));
  app.get('/.well-known/agent-skills/chess-footprint-coach/SKILL.md', (_req, res) => res.type('text/markdown; charset=utf-8').send(skill));
  app.get('/llms.txt', (_req, res) => res.type('text/markdown; charset=utf-8').send(llms));
  app.get('/auth.md', (_req, res) => res.type('text/markdown; charset=utf-8').send(auth));
  // The dashboard's pages come first: `/` serves its HTML to a browser, the JSON index below to API clients.
  app.use(dashboard.router);
  app.get('/', (_req, res) =>
    res.set('Link', apiCatalogLinkHeader(base)).json({
      name: 'chess-footprint',
      api: `${base}/api/v1`,
      mcp: `${base}/api/mcp`,
      openapi: `${base}/openapi.json`,
      llms: `${base}/llms.txt`,
      auth: `${base}/auth.md`,
    }),
  );

  app.use(mcpRouter(tools, deps));
  app.use(dashboard.auth);
  app.use(restRouter(tools, deps));
  app.use(shareRouter(deps));
  for (const r of opts.extraRouters ?? []) app.use(r);
  app.use(bodyErrorHandler);
  app.use((req: Request, res: Response) => {
    res.status(404).json({ error: `no endpoint ${req.method} ${req.path}; see ${base}/openapi.json` });
  });
  // Last resort: an unexpected fault is a 500 `{error}`, never an HTML page.
  app.use((err: unknown, _req: Request, res: Response, _next: unknown) => {
    console.error(err);
    res.status(500).json({ error: 'internal error; the server log has details' });
  });
  return app;
}
