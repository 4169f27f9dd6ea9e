import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';

/** One encoding of a document: its bytes, the strong ETag of those bytes, and the headers of a 200 and of a 304. */
interface Representation {
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
  notModified: Record<string, string>;
}

function representation(body: Buffer, headers: Record<string, string>): Representation {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, etag, headers: { ...headers, ETag: etag, 'Content-Length': String(body.length) }, notModified: { ...headers, ETag: etag } };
}

export type DocumentHandler = (req: Request, res: Response) => void;

/**
 * A document that never changes while the process runs (the discovery set is a pure function of the
 * tool registry and the base URL), encoded once: each request writes the same bytes, and a client
 * holding the strong ETag gets a 304 without a body (RFC 9110 section 13.1.2). Caches may keep it five minutes
 * and then revalidate: a new server version changes the bytes and so the ETag.
 *
 * A client that accepts gzip (browsers, `curl --compressed`, Node's fetch, MCP clients) gets a copy
 * compressed once at start: the 209 KB OpenAPI document is 35 KB on the wire. Each encoding is its
 * own representation with its own ETag (RFC 9110 section 8.8.3: a strong validator changes with the
 * content coding), and `Vary: Accept-Encoding` tells caches the answer depends on it.
 */
export function staticDocument(contentType: string, content: string | object, headers: Record<string, string> = {}): DocumentHandler {
  const body = Buffer.from(typeof content === 'string' ? content : JSON.stringify(content));
  const common = { 'Content-Type': contentType, 'Cache-Control': 'public, max-age=300, must-revalidate', Vary: 'Accept-Encoding', ...headers };
  const identity = representation(body, common);
  const compressed = gzipSync(body, { level: 9 });
  // A short document can come out longer compressed; it is then only ever sent as it is.
  const gzip = compressed.length < body.length ? representation(compressed, { ...common, 'Content-Encoding': 'gzip' }) : null;
  return (req: Request, res: Response) => {
    // No Accept-Encoding means identity (what the bench and plain HTTP/1.1 clients send).
    const chosen = gzip && req.headers['accept-encoding'] && req.acceptsEncodings('gzip', 'identity') === 'gzip' ? gzip : identity;
    const held = req.headers['if-none-match'];
    if (held && held.split(',').some((t) => t.trim() === chosen.etag || t.trim() === `W/${chosen.etag}` || t.trim() === '*')) {
      res.writeHead(304, chosen.notModified).end();
      return;
    }
    // Node's writeHead with headers worked out at start, not express's res.set, which parses the
    // Content-Type again on every answer.
    res.writeHead(200, chosen.headers);
    if (req.method === 'HEAD') res.end();
    else res.end(chosen.body);
  };
}

/**
 * The discovery documents as one middleware, found by path in a map: as a GET and a HEAD route each,
 * they were 20 layers that every other request went through first. Paths match as express routes
 * do, ignoring case and one trailing slash.
 */
export function documentsByPath(documents: ReadonlyArray<readonly [string, DocumentHandler]>) {
  const byPath = new Map(documents.map(([path, handler]) => [path.toLowerCase(), handler]));
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    const handler = byPath.get(path.toLowerCase());
    if (handler) handler(req, res);
    else next();
  };
}
