import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

/**
 * What both facades need of HTTP, below both: the REST facade (src/http/rest.ts, on node:http) and
 * MCP over HTTP (src/mcp/http.ts, behind express) take the same body limit, refuse a declared
 * oversize body the same way, and keep personal answers out of caches.
 */

/** Bounded JSON envelope: a 100,000-character PGN plus escaping fits; more is refused with 413. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;

/** Whether a request comes with a body (a non-zero Content-Length or a chunked one). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A declared Content-Length over the limit is refused (true) before a byte is read, and the
 * connection is dropped rather than drained: a client that declares 10 MB and sends nothing is not
 * waited for. The answer is the `{error}` JSON every refusal carries.
 */
export function refusedOversize(req: IncomingMessage, res: ServerResponse): boolean {
  const declared = req.headers['content-length'];
  if (declared === undefined || !(Number(declared) > JSON_BODY_LIMIT_BYTES)) return false;
  const body = JSON.stringify({ error: `the declared request body exceeds ${JSON_BODY_LIMIT_BYTES} bytes` });
  res.setHeader('Connection', 'close');
  res.writeHead(413, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
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
