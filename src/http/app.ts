import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Request, type Response } from 'express';
import type { AnyTool } from '../../tools/defineTool.js';
import type { AppDeps } from '../context.js';
import { mcpRouter } from '../mcp/http.js';
import { agentSkillsIndex, apiCatalog, apiCatalogLinkHeader, authMd, coachSkillMd, llmsTxt, serverCard } from './discovery.js';
import { fishnetRouter } from './fishnet.js';
import { healthRouter } from './health.js';
import { mcpCatalog, registryServerJson, SERVER_CARD_MEDIA_TYPE, serverCardV2 } from './mcpDiscovery.js';
import { buildOpenApi } from './openapi.js';
import { bodyErrorHandler, restHandler } from './rest.js';
import { documentsByPath, staticDocument, type DocumentHandler } from './staticDocument.js';
import { requestTarget } from './front.js';
import { under } from './gate.js';
import { shareRouter } from './sharePage.js';
import { strangerGate } from './strangerGate.js';
import { strangerPace, type StrangerPaceOptions } from './strangerPace.js';
import { createDashboard } from './dashboard.js';
import { asApiError } from '../errors.js';
import { cliCommand, stdioCommandLine } from '../services/accounts/index.js';

export interface HttpOptions {
  /** Absolute base used in discovery documents and links, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** How strangers' refusals are paced (strangerPace.ts); the defaults unless given (tests). */
  strangerPace?: Partial<StrangerPaceOptions>;
}

/** The whole HTTP surface as one node:http request listener. */
export interface HttpApp {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Stops the dashboard's background work (a "sync now" in progress). */
  close(): void;
}

/**
 * The whole HTTP surface, derived from the tool list. The discovery documents (staticDocument.ts)
 * and the tool routes (rest.ts) answer on node:http in front; the express app takes everything
 * else: the dashboard and its settings API, MCP, health, the share page, and the 404 for any other
 * path. Express's per-request machinery cost more than a read's own work (rest.ts has the figures).
 */
export function createHttpApp(tools: readonly AnyTool[], deps: AppDeps, opts: HttpOptions): HttpApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('json spaces', 0);
  // No automatic ETag (a hash of every body): personal answers are no-store, so nothing would ever
  // revalidate with it; the discovery documents set their own strong one (staticDocument.ts).
  app.set('etag', false);
  const base = opts.baseUrl.replace(/\/$/, '');
  const dashboard = createDashboard(deps, base);
  // Documents are pure functions of the registry and the base URL: built and encoded once, at start.
  const json = 'application/json; charset=utf-8';
  const markdown = 'text/markdown; charset=utf-8';
  const documents: Array<[string, DocumentHandler]> = [
    ['/openapi.json', staticDocument(json, buildOpenApi(tools, base, dashboard.routes))],
    ['/.well-known/api-catalog', staticDocument('application/linkset+json', apiCatalog(base), { Link: apiCatalogLinkHeader(base) })],
    ['/.well-known/mcp.json', staticDocument(json, serverCard(tools, base))],
    ['/.well-known/agent-skills/index.json', staticDocument(json, agentSkillsIndex(tools, base))],
    ['/.well-known/agent-skills/chess-footprint-coach/SKILL.md', staticDocument(markdown, coachSkillMd(tools, base))],
    ['/llms.txt', staticDocument(markdown, llmsTxt(tools, base, stdioCommandLine(deps.config.dataDir)))],
    ['/auth.md', staticDocument(markdown, authMd(base, cliCommand()))],
    // SEP-2127: the card at <streamable-http-url>/server-card, listed by the MCP Catalog; both public and CORS-open.
    ['/api/mcp/server-card', staticDocument(SERVER_CARD_MEDIA_TYPE, serverCardV2(base), { 'Access-Control-Allow-Origin': '*' })],
    ['/.well-known/mcp/catalog.json', staticDocument(json, mcpCatalog(base), { 'Access-Control-Allow-Origin': '*' })],
    ['/server.json', staticDocument(json, registryServerJson())],
  ];
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

  // Each router runs only for its own part of the URL space (gate.ts): express would otherwise try
  // every route of every router on the way to a request's own.
  app.use(under('/health', healthRouter(deps)));
  app.use(under('/api/mcp', mcpRouter(tools, deps)));
  app.use(under('/share', shareRouter(deps)));
  // Review workers (issue 36): a worker key opens these routes and nothing else.
  app.use(under('/fishnet', fishnetRouter(deps)));
  app.use(bodyErrorHandler);
  app.use((req: Request, res: Response) => {
    // A person's browser at an unknown address gets the dashboard's Not found page; an API client its {error}.
    if (dashboard.notFound(req, res)) return;
    res.status(404).json({ error: `no endpoint ${req.method} ${req.path}; see ${base}/openapi.json` });
  });
  // Last resort: an unexpected fault is a 500 `{error}`, never an HTML page.
  app.use((err: unknown, _req: Request, res: Response, _next: unknown) => {
    // A store lock another process held past the serving wait is a 503 (src/store/busy.ts), not a fault.
    const known = asApiError(err);
    if (known) return void res.status(known.status).set(known.headers).json({ error: known.message });
    console.error(err);
    res.status(500).json({ error: 'internal error; the server log has details' });
  });
  // In front of the app, on node:http: the documents' bytes, the tool routes (see rest.ts for why), and
  // the refusal of strangers on the routes express serves (strangerGate.ts: before express's own cost).
  const refuseStranger = strangerPace(opts.strangerPace);
  const front = [documentsByPath(documents), restHandler(tools, deps, base, refuseStranger), strangerGate(deps, dashboard.routes, app, refuseStranger)];
  return Object.assign(
    (req: IncomingMessage, res: ServerResponse) => {
      const target = requestTarget(req.url ?? '/');
      if (!front.some((handler) => handler(req, res, target))) app(req, res);
    },
    { close: dashboard.stop },
  );
}
