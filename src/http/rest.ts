import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { AnyTool } from '../../tools/defineTool.js';
import { bearerToken, verifyToken } from '../auth/tokens.js';
import type { AppDeps, Caller, User } from '../context.js';
import { hasBody, JSON_BODY_LIMIT_BYTES, prepareRefusal, refuseBeforeBody, refusedOversize, tooDeepMessage, verifyDepth } from '../facade/http.js';
import { invokeTool, unauthorizedMessage, type Outcome } from '../facade/invoke.js';
import { isKeptResult } from '../services/common/index.js';
import type { FrontHandler } from './front.js';
import { pathsUnder } from './pathMatch.js';
import { restRoute, type RestRoute } from './restRoute.js';
import { crossOriginMessage, requestProtocol, requestSession } from './sessionAuth.js';
import type { RefuseStranger } from './strangerPace.js';

/** Every tool's REST path lies under this prefix (spec section 9). */
export const REST_PREFIX = '/api/v1';

const REST_PATHS = pathsUnder(REST_PREFIX);
/** Personal answers (and their errors) must never be kept by a browser or a shared cache. */
const PERSONAL_PATHS = pathsUnder(`${REST_PREFIX}/me`);

/**
 * The encoded JSON of each answer object, kept while the object lives: a memoised read (a list page,
 * the stats, the coaching state, the profile: src/services/common/ownerMemo.ts) answers with the same object
 * until the owner's data changes, so its 3–20 KB are encoded once rather than per request, and written
 * as they are (Node leaves the body out of a HEAD answer). Only kept results go in: for a fresh
 * answer the entry would only be work for the collector. Answers are read-only.
 */
const encoded = new WeakMap<object, Buffer>();

function send(res: ServerResponse, outcome: Outcome): void {
  const body = outcome.body;
  let bytes: Buffer | string | undefined;
  if (isKeptResult(body)) {
    bytes = encoded.get(body);
    if (bytes === undefined) encoded.set(body, (bytes = Buffer.from(JSON.stringify(body))));
  } else {
    // A fresh answer goes out as its text: the socket encodes it, with no Buffer copy made first.
    bytes = JSON.stringify(body);
  }
  for (const name in outcome.headers) res.setHeader(name, outcome.headers[name]);
  res.writeHead(outcome.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(bytes) });
  res.end(bytes);
}

function error(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  send(res, { status, body: { error: message }, headers });
}

/** Body-parser failures as a status and a message (413 oversize, 400 malformed JSON), or null for other faults. */
function bodyError(err: unknown): { status: number; message: string } | null {
  const e = err as { type?: string; status?: number };
  if (e?.type === 'entity.too.large') return { status: 413, message: `the request body exceeds ${JSON_BODY_LIMIT_BYTES} bytes` };
  if (e?.type === 'entity.parse.failed') return { status: 400, message: 'the body is not valid JSON' };
  if (e?.type === 'entity.too.deep') return { status: 400, message: tooDeepMessage };
  if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') return { status: 415, message: 'unsupported body encoding; send UTF-8 JSON' };
  if (e?.type === 'request.size.invalid' || e?.type === 'request.aborted') return { status: 400, message: 'the body did not match its declared length' };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return { status: e.status, message: 'bad request' };
  return null;
}

/** The express app's error handler for the bodies it parses (MCP, settings). */
export function bodyErrorHandler(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const known = bodyError(err);
  if (known) return error(res, known.status, known.message);
  next(err);
}

/** Percent-decoded path parameters (as express decodes them), or null when one is not valid UTF-8 percent-encoding. */
function decodeParams(raw: readonly string[]): string[] | null {
  try {
    return raw.map((v) => decodeURIComponent(v));
  } catch {
    return null;
  }
}

/**
 * The REST facade: one route per tool, derived from the registry alone, answered on node:http
 * before the express app, which gets every request this one does not take (returns false).
 *
 * Why not express routes: express 5's per-request machinery (the request and response prototypes it
 * swaps in, its router) cost more than all of a read's own work. On this project's 2-core bench a
 * one-route express app answered 9,000 requests/s and the same route on node:http 23,000–46,000, and
 * `get_game` through the app ran at 58% of that bare express route against 113–142% dispatched here
 * (issue 13). Semantics are express's: case-insensitive paths, one trailing slash, HEAD for GET,
 * `querystring` parsing (the app's "simple" parser), percent-decoded parameters, body-parser's JSON.
 */
export function restHandler(tools: readonly AnyTool[], deps: AppDeps, baseUrl: string, refuseStranger: RefuseStranger): FrontHandler {
  const byMethod = new Map<string, RestRoute[]>();
  for (const tool of tools) {
    if (!tool.rest.path.startsWith(`${REST_PREFIX}/`)) throw new Error(`${tool.name}: its REST path ${tool.rest.path} is not under ${REST_PREFIX}`);
    const list = byMethod.get(tool.rest.method) ?? [];
    list.push(restRoute(tool));
    byMethod.set(tool.rest.method, list);
  }
  const json = express.json({ limit: JSON_BODY_LIMIT_BYTES, type: () => true, verify: verifyDepth });
  // A personal tool's refusal of a caller without a live credential, encoded once (a flood repeats it).
  const stranger = prepareRefusal(401, unauthorizedMessage({ surface: 'rest', key: '' }), [['WWW-Authenticate', 'Bearer']]);

  const answer = async (route: RestRoute, rawParams: readonly string[], query: string, req: IncomingMessage, res: ServerResponse) => {
    const { tool } = route;
    const isPost = tool.rest.method === 'POST';
    // In the order the express app checked them: the session, the path, then the body before it is read.
    const session = requestSession(req, deps, baseUrl);
    if (session === 'cross-origin') return refuseBeforeBody(req, res, 403, crossOriginMessage);
    const caller: Caller = { surface: 'rest', key: `ip:${req.socket.remoteAddress ?? 'unknown'}`, origin: `${requestProtocol(req)}://${req.headers.host}` };
    // Who is asking, before anything of the body is read (issue 44 item 2): a stranger's body is
    // neither read nor parsed, and the connection is closed rather than drained.
    let user: User | null = null;
    if (tool.access === 'personal') {
      user = session ? session.user : verifyToken(deps.store, bearerToken(req.headers.authorization), deps.clock);
      if (!user) return refuseStranger(req, res, stranger);
    }
    const params = decodeParams(rawParams);
    if (!params) return error(res, 400, 'a path segment is not valid percent-encoded UTF-8');
    // 415 before reading: a write's body must be JSON.
    if (isPost && hasBody(req) && !/^application\/json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '')) {
      return error(res, 415, 'Content-Type must be application/json');
    }
    if (!isPost && hasBody(req)) return error(res, 400, `${tool.rest.method} takes no request body`);
    if (refusedOversize(req, res)) return;
    const fields = parseQuery(query);
    let input: Record<string, unknown>;
    if (isPost) {
      let body: unknown = {};
      if (hasBody(req)) {
        const failure = await new Promise<unknown>((done) => json(req as Request, res as Response, done));
        if (failure) {
          const known = bodyError(failure);
          if (!known) throw failure;
          return error(res, known.status, known.message);
        }
        body = (req as Request).body;
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return error(res, 400, 'the body must be a JSON object');
      const clash = route.params.find((p) => p in body);
      if (clash) return error(res, 400, `unexpected field(s): ${clash} (it belongs in the path)`);
      if (Object.keys(fields).length) return error(res, 400, `unexpected query parameter(s): ${Object.keys(fields).join(', ')}`);
      input = { ...body };
    } else {
      const coerced = route.coerceQuery(fields);
      if (typeof coerced === 'string') return error(res, 400, coerced);
      input = coerced;
    }
    route.params.forEach((p, k) => (input[p] = params[k]));
    // The owner verified above (a dashboard session, origin-checked, or the bearer token); a public tool has none.
    const outcome = await invokeTool(tool, deps, caller, user ? { user } : undefined, input);
    send(res, outcome);
  };

  /** The methods a tool path takes (RFC 9110 section 9.3.7), as express's router answered OPTIONS. */
  const answerOptions = (path: string, res: ServerResponse) => {
    const methods = [...byMethod].filter(([, routes]) => routes.some((r) => r.match(path))).map(([method]) => method);
    if (!methods.length) return false;
    if (methods.includes('GET')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
    res.writeHead(204, { Allow: methods.join(', ') }).end();
    return true;
  };

  return (req, res, { path, query }) => {
    if (!REST_PATHS.test(path)) return false;
    if (PERSONAL_PATHS.test(path)) res.setHeader('Cache-Control', 'no-store');
    if (req.method === 'OPTIONS') return answerOptions(path, res);
    for (const route of byMethod.get(req.method === 'HEAD' ? 'GET' : (req.method ?? '')) ?? []) {
      const params = route.match(path);
      if (!params) continue;
      // No credential of any kind on a personal tool: refused here, before the request's own work begins.
      if (route.tool.access === 'personal' && req.headers.authorization === undefined && req.headers.cookie === undefined) {
        refuseStranger(req, res, stranger);
        return true;
      }
      answer(route, params, query, req, res).catch((err: unknown) => {
        // An unexpected fault: say so plainly, keep the details in the server log.
        console.error(`[${route.tool.name}]`, err);
        if (!res.headersSent) error(res, 500, 'internal error; the server log has details');
        else res.destroy();
      });
      return true;
    }
    return false;
  };
}
