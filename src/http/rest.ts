import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { pathParams, type AnyTool } from '../../tools/defineTool.js';
import { bearerToken } from '../auth/tokens.js';
import type { AppDeps } from '../context.js';
import { inputJsonSchema, scalarType } from '../facade/jsonSchema.js';
import { invokeTool, type Outcome } from '../facade/invoke.js';
import { isKeptResult } from '../services/ownerMemo.js';

/** Bounded JSON envelope: a 100,000-character PGN plus escaping fits; more is refused with 413. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * The encoded JSON of each answer object, kept while the object lives: a memoised read (a list page,
 * the stats, the coaching state, the profile: src/services/ownerMemo.ts) answers with the same object
 * until the owner's data changes, so its 3–20 KB are encoded once rather than per request, and written
 * as they are (Node leaves the body out of a HEAD answer). Only kept results go in: for a fresh
 * answer the entry would only be work for the collector. Answers are read-only.
 */
const encoded = new WeakMap<object, Buffer>();

function send(res: Response, outcome: Outcome): void {
  const body = outcome.body;
  let bytes: Buffer | string | undefined;
  if (isKeptResult(body)) {
    bytes = encoded.get(body);
    if (bytes === undefined) encoded.set(body, (bytes = Buffer.from(JSON.stringify(body))));
  } else {
    // A fresh answer goes out as its text: the socket encodes it, with no Buffer copy made first.
    bytes = JSON.stringify(body);
  }
  // Node's own writeHead rather than express's res.set: that one parses every Content-Type again
  // (mime.contentType) on each answer, a few µs of a read that costs a hundred in all (issue 13).
  for (const name in outcome.headers) res.setHeader(name, outcome.headers[name]);
  res.writeHead(outcome.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(bytes) });
  res.end(bytes);
}

function error(res: Response, status: number, message: string): void {
  res.status(status).json({ error: message });
}

/** `/api/v1/me/games/{id}` → `/api/v1/me/games/:id` (express 5 syntax). */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Query strings carry text; the tool's schema says which fields are numbers or booleans.
 * Values that do not convert are left as text so validation names the field. What a tool accepts is
 * worked out once, when its route is built: most reads come with no query at all.
 */
function queryCoercer(tool: AnyTool): (query: Record<string, unknown>) => Record<string, unknown> | string {
  const props = inputJsonSchema(tool).properties ?? {};
  const path = pathParams(tool.rest.path);
  const accepted = Object.keys(props).filter((k) => !path.includes(k));
  const types = new Map(accepted.map((k) => [k, scalarType(props[k])]));
  return (query) => {
    // A typo (?provdier=siteA) must not silently widen the answer: name it, and what is accepted.
    const unknown = Object.keys(query).filter((k) => !types.has(k));
    if (unknown.length) {
      const list = accepted.length ? `accepted: ${accepted.join(', ')}` : 'this endpoint takes no query parameters';
      return `unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; ${list}`;
    }
    const out: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(query)) {
      if (Array.isArray(raw)) return `${key}: give it once (comma-separate list values)`;
      if (typeof raw !== 'string') return `${key}: unsupported query syntax`;
      const type = types.get(key);
      if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(raw.trim())) out[key] = Number(raw);
      else if (type === 'boolean' && (raw === 'true' || raw === 'false')) out[key] = raw === 'true';
      else out[key] = raw;
    }
    return out;
  };
}

/**
 * A declared Content-Length over the limit is refused before a byte is read, and the connection is
 * dropped rather than drained: a client that declares 10 MB and sends nothing is not waited for.
 */
export function refuseDeclaredOversize(req: Request, res: Response, next: NextFunction): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > JSON_BODY_LIMIT_BYTES) {
    res.set('Connection', 'close');
    return error(res, 413, `the declared request body exceeds ${JSON_BODY_LIMIT_BYTES} bytes`);
  }
  next();
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Personal answers (and their errors) must never be kept by a browser or a shared cache. */
export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.set('Cache-Control', 'no-store');
  next();
}

/** One route per tool, derived from the registry alone. */
export function restRouter(tools: readonly AnyTool[], deps: AppDeps): Router {
  const router = express.Router();
  router.use('/api/v1/me', noStore);
  const json = express.json({ limit: JSON_BODY_LIMIT_BYTES, type: () => true });
  for (const tool of tools) {
    const method = tool.rest.method.toLowerCase() as 'get' | 'post' | 'delete';
    const params = pathParams(tool.rest.path);
    const coerceQuery = queryCoercer(tool);
    const handlers = [
      // 415 before reading: a write's body must be JSON.
      (req: Request, res: Response, next: NextFunction) => {
        if (method === 'post' && hasBody(req) && !req.is('application/json')) {
          return error(res, 415, 'Content-Type must be application/json');
        }
        if (method !== 'post' && hasBody(req)) return error(res, 400, `${tool.rest.method} takes no request body`);
        refuseDeclaredOversize(req, res, next);
      },
      ...(method === 'post' ? [json] : []),
      async (req: Request, res: Response) => {
        let input: Record<string, unknown>;
        if (method === 'post') {
          const body = hasBody(req) ? req.body : {};
          if (body === null || typeof body !== 'object' || Array.isArray(body)) return error(res, 400, 'the body must be a JSON object');
          const clash = params.find((p) => p in body);
          if (clash) return error(res, 400, `unexpected field(s): ${clash} (it belongs in the path)`);
          if (Object.keys(req.query).length) return error(res, 400, `unexpected query parameter(s): ${Object.keys(req.query).join(', ')}`);
          input = { ...body };
        } else {
          const coerced = coerceQuery(req.query as Record<string, unknown>);
          if (typeof coerced === 'string') return error(res, 400, coerced);
          input = coerced;
        }
        for (const p of params) input[p] = req.params[p];
        const outcome = await invokeTool(
          tool,
          deps,
          { surface: 'rest', key: `ip:${req.socket.remoteAddress ?? 'unknown'}`, origin: `${req.protocol}://${req.get('host')}` },
          // A dashboard session (checked for origin by sessionCookieAuth) or the bearer token.
          res.locals.session ? { user: res.locals.session.user } : bearerToken(req.headers.authorization),
          input,
        );
        send(res, outcome);
      },
    ];
    router[method](expressPath(tool.rest.path), ...handlers);
  }
  return router;
}

/** Body-parser failures as `{error}` with the right status (413 oversize, 400 malformed JSON). */
export function bodyErrorHandler(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const e = err as { type?: string; status?: number };
  if (e?.type === 'entity.too.large') return error(res, 413, `the request body exceeds ${JSON_BODY_LIMIT_BYTES} bytes`);
  if (e?.type === 'entity.parse.failed') return error(res, 400, 'the body is not valid JSON');
  if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') return error(res, 415, 'unsupported body encoding; send UTF-8 JSON');
  if (e?.type === 'request.size.invalid' || e?.type === 'request.aborted') return error(res, 400, 'the body did not match its declared length');
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return error(res, e.status, 'bad request');
  next(err);
}
