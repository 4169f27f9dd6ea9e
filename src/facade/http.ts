import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

/**
 * What both facades need of HTTP, below both: the REST facade (src/http/rest.ts, on node:http) and
 * MCP over HTTP (src/mcp/http.ts, behind express) take the same body limit, refuse a declared
 * oversize body the same way, and keep personal answers out of caches.
 */

/** Bounded JSON envelope: a 100,000-character PGN plus escaping fits; more is refused with 413. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * The deepest JSON nesting any route reads: the deepest body a route takes is a fishnet analysis
 * (`{analysis: [{score: {cp}}]}`, four levels) or an MCP message (`{params: {arguments: {…}}}`); 64 leaves
 * room for any honest client while a body of 100,000 `[` is refused before JSON.parse builds it.
 */
export const JSON_DEPTH_LIMIT = 64;

export const tooDeepMessage = `the JSON body nests deeper than ${JSON_DEPTH_LIMIT} levels`;

/**
 * Whether a JSON text nests deeper than `limit`: one linear pass over the bytes, counting `[` and `{`
 * outside strings (RFC 8259: a string opens and closes with an unescaped `"`; `\` escapes the next
 * character). It stops at the first level past the limit, so it costs at most one pass over a body the
 * route's byte limit already bounds, and never recurses.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit = JSON_DEPTH_LIMIT): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: the next byte is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/**
 * body-parser's `verify` hook (express.json, express.text): it runs on the raw bytes after they are read
 * and before JSON.parse, and an error it throws is the request's error, with this status and type
 * (`bodyError` in src/http/rest.ts answers it as 400 `{error}`).
 */
export function verifyDepth(_req: unknown, _res: unknown, bytes: Buffer): void {
  if (nestsDeeperThan(bytes)) throw Object.assign(new Error(tooDeepMessage), { status: 400, type: 'entity.too.deep' });
}

/**
 * A refusal sent before the body is read (the caller is not known, or the declared body is too large).
 * A request that carries a body is answered with `Connection: close`, its socket no longer read, and
 * closed once the answer is written, instead of node:http reading the rest of the body to keep the
 * connection alive: a stranger's megabyte (or a body that never ends) costs neither the read nor the wait.
 */
export function refuseBeforeBody(req: IncomingMessage, res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: message });
  if (hasBody(req)) {
    res.setHeader('Connection', 'close');
    stopReading(req, res);
  }
  for (const name in headers) res.setHeader(name, headers[name]);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Stop reading the socket now (what arrives stays in the kernel's buffer, unparsed) and drop it once the
 * answer is written: the sender gets a reset instead of a server reading its megabyte to the end.
 */
export function stopReading(req: IncomingMessage, res: ServerResponse): void {
  req.socket.pause();
  res.once('finish', dropSocket);
  skipBodyCopies(req);
}

/** node:http's parser of a socket (`socket.parser`, not in Node's types), whose `[kOnBody]` gets each body piece. */
interface SocketParser {
  constructor: { kOnBody?: number };
  [slot: number]: unknown;
}

/**
 * The rest of the bytes node:http has already read with the head (up to 64 KiB, one socket read) are still
 * parsed after this request's listener returns, and node's parser copies each body piece into a new Buffer for
 * its `kOnBody` callback, unless that slot holds no function (node_http_parser.cc `on_body`: "if
 * (!cb->IsFunction()) return 0;" before `Buffer::Copy`). A stranger's 64 KiB copy is garbage at once, but it
 * is external memory, and a flood of them drove a full collection of the server's whole heap every
 * 200–400 ms (`--trace-gc`: Mark-Compact, 5–28 ms pauses). The slot is emptied for this socket's parser and
 * given back when the socket closes (node puts the parser back in its pool on 'close', before this listener
 * runs, and takes it out again only for a later connection). Node internals: a parser without the slot is
 * left alone.
 */
function skipBodyCopies(req: IncomingMessage): void {
  const parser = (req.socket as unknown as { parser?: SocketParser | null }).parser;
  const slot = parser?.constructor.kOnBody;
  if (!parser || slot === undefined) return;
  const onBody = parser[slot];
  if (typeof onBody !== 'function') return;
  parser[slot] = null;
  req.socket.once('close', () => {
    parser[slot] = onBody;
  });
}

// One listener for every refusal (no closure per request). node:http detaches the socket from the
// answer on 'finish' before this runs, so it is reached through the request.
function dropSocket(this: ServerResponse): void {
  this.req.socket.destroy();
}

/**
 * A refusal encoded once, for the refusals a flood repeats (src/http/strangerGate.ts): the same answer as
 * `refuseBeforeBody(req, res, status, message, headers)`, with the body's bytes and the header block built
 * at start instead of per request. `headers` come first, in their order (a route's Cache-Control).
 */
export interface PreparedRefusal {
  status: number;
  body: Buffer;
  /** Header name/value pairs, flat, for a request without a body (the connection is kept). */
  keep: readonly string[];
  /** The same with `Connection: close`, for a request with a body. */
  close: readonly string[];
}

export function prepareRefusal(status: number, message: string, headers: Array<[string, string]> = []): PreparedRefusal {
  const body = Buffer.from(JSON.stringify({ error: message }));
  const cache = headers.filter(([name]) => name === 'Cache-Control').flat();
  const rest = headers.filter(([name]) => name !== 'Cache-Control').flat();
  const tail = [...rest, 'Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(body.length)];
  return { status, body, keep: [...cache, ...tail], close: [...cache, 'Connection', 'close', ...tail] };
}

/**
 * Sends a prepared refusal, closing the connection under a body as `refuseBeforeBody` does. `stopped`: the
 * socket was already stopped (`stopReading`, a paced stranger), so the connection closes, body or not.
 */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: PreparedRefusal, stopped = false): void {
  if (stopped || hasBody(req)) {
    if (!stopped) stopReading(req, res);
    res.writeHead(refusal.status, refusal.close as string[]);
  } else res.writeHead(refusal.status, refusal.keep as string[]);
  res.end(refusal.body);
}

/** Whether a request comes with a body (a non-zero Content-Length or a chunked one). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A declared Content-Length over the limit is refused (true) before a byte is read, and the
 * connection is dropped rather than drained: a client that declares 10 MB and sends nothing is not
 * waited for. The answer is the `{error}` JSON every refusal carries; a route with a limit of its own
 * (fishnet's submissions) passes it, and its message.
 */
export function refusedOversize(req: IncomingMessage, res: ServerResponse, limit = JSON_BODY_LIMIT_BYTES, message = `the declared request body exceeds ${limit} bytes`): boolean {
  const declared = req.headers['content-length'];
  if (declared === undefined || !(Number(declared) > limit)) return false;
  refuseBeforeBody(req, res, 413, message);
  return true;
}

/** `refusedOversize` as express middleware (MCP). */
export function refuseDeclaredOversize(req: Request, res: Response, next: NextFunction): void {
  if (!refusedOversize(req, res)) next();
}

/** Express middleware for the personal surfaces express serves (MCP): personal answers, and their errors, are never kept by a browser or a shared cache. */
export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
