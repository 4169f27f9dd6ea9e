import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { AnyTool } from '../../tools/defineTool.js';
import { bearerToken, verifyToken } from '../auth/tokens.js';
import type { AppDeps } from '../context.js';
import { Messages } from '../errors.js';
import { JSON_BODY_LIMIT_BYTES, noStore, refuseBeforeBody, refuseDeclaredOversize, verifyDepth } from '../facade/http.js';
import { createMcpServer } from './server.js';

export function hostnameOf(hostHeader: string): string {
  // "[::1]:3000" → "[::1]", "localhost:3000" → "localhost"
  const m = /^(\[[^\]]+\]|[^:]+)(:\d+)?$/.exec(hostHeader.trim().toLowerCase());
  return m ? m[1] : '';
}

/**
 * DNS-rebinding protection for a server on the owner's machine: a web page elsewhere must not be
 * able to reach it through a hostile DNS name. The Host must be an allowed name, and an Origin,
 * when a browser sends one, must be on an allowed host or listed explicitly.
 */
export function originGuard(allowedHosts: readonly string[], allowedOrigins: readonly string[]) {
  const hosts = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return (req: Request, res: Response, next: NextFunction) => {
    const host = hostnameOf(req.headers.host ?? '');
    if (!hosts.has(host)) {
      res.status(403).json({ error: `Host ${req.headers.host ?? '(none)'} is not allowed; add it to CFP_ALLOWED_HOSTS` });
      return;
    }
    const origin = req.headers.origin;
    if (origin && !allowedOrigins.includes(origin)) {
      let originHost = '';
      try {
        originHost = new URL(origin).hostname.toLowerCase();
      } catch {
        originHost = '';
      }
      const bracketed = originHost.includes(':') ? `[${originHost}]` : originHost;
      if (!hosts.has(originHost) && !hosts.has(bracketed)) {
        res.status(403).json({ error: `Origin ${origin} is not allowed; add it to CFP_ALLOWED_ORIGINS` });
        return;
      }
    }
    next();
  };
}

/**
 * What a message without a token may carry: initialize, the listings and the public tools' calls (a
 * tournament number, a library slug) take a few hundred bytes. A stranger's body is read only up to this.
 */
export const ANONYMOUS_MCP_BODY_LIMIT_BYTES = 16 * 1024;

/** The 401 of a message without a verified owner past ANONYMOUS_MCP_BODY_LIMIT_BYTES (also sent by src/http/strangerGate.ts). */
export const anonymousOversizeMessage = `${Messages.unauthorized}; without one a message may carry at most ${ANONYMOUS_MCP_BODY_LIMIT_BYTES} bytes`;

/**
 * Who is asking, before the body is read (issue 44 item 2). MCP admits a message without a verified owner
 * (initialize, the listings, the public tools; a personal tool then answers its 401 as an `isError`
 * result, as every surface words it), so a request whose token is missing or verifies nothing is read only
 * up to ANONYMOUS_MCP_BODY_LIMIT_BYTES: a larger declared body is refused 401 before a byte is read, and
 * a chunked one stops being read there. Only an owner's message may carry the full JSON_BODY_LIMIT_BYTES.
 */
function authenticateFirst(deps: AppDeps) {
  const anonymous = express.json({ limit: ANONYMOUS_MCP_BODY_LIMIT_BYTES, verify: verifyDepth });
  const signed = express.json({ limit: JSON_BODY_LIMIT_BYTES, verify: verifyDepth });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.headers.authorization !== undefined && verifyToken(deps.store, bearerToken(req.headers.authorization), deps.clock)) return signed(req, res, next);
    if (Number(req.headers['content-length']) > ANONYMOUS_MCP_BODY_LIMIT_BYTES) return refuseBeforeBody(req, res, 401, anonymousOversizeMessage, { 'WWW-Authenticate': 'Bearer' });
    // Past its limit body-parser reads the rest of the body before it reports the error (its read.js dumps
    // the request, to keep the connection usable): a stranger's megabyte would be read whole. The bytes are
    // counted as they arrive instead, and the refusal sent at the limit, the socket closed unread.
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= ANONYMOUS_MCP_BODY_LIMIT_BYTES || res.headersSent) return;
      req.off('data', count);
      refuseBeforeBody(req, res, 401, anonymousOversizeMessage, { 'WWW-Authenticate': 'Bearer' });
    };
    // Only a body body-parser reads (JSON): any other is left unread, as before.
    if (req.is('application/json')) req.on('data', count);
    anonymous(req, res, (err?: unknown) => {
      req.off('data', count);
      if (res.headersSent) return;
      if ((err as { type?: string } | undefined)?.type !== 'entity.too.large') return next(err);
      refuseBeforeBody(req, res, 401, anonymousOversizeMessage, { 'WWW-Authenticate': 'Bearer' });
    });
  };
}

/** Stateless streamable HTTP at /api/mcp: a fresh server and transport per POST. */
export function mcpRouter(tools: readonly AnyTool[], deps: AppDeps): Router {
  const router = express.Router();
  router.use('/api/mcp', noStore, originGuard(deps.config.allowedHosts, deps.config.allowedOrigins));
  router.post('/api/mcp', refuseDeclaredOversize, authenticateFirst(deps), async (req: Request, res: Response) => {
    const server = createMcpServer(tools, deps, bearerToken(req.headers.authorization), {
      transport: 'http',
      origin: `${req.protocol}://${req.get('host')}`,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: no server-initiated stream and no session to delete. 405 (not 404, which clients read as "no server").
  router.all('/api/mcp', (_req: Request, res: Response) => {
    res.status(405).set('Allow', 'POST').json({ error: 'this MCP endpoint is stateless: POST JSON-RPC messages to it' });
  });
  return router;
}
