import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** One encoding of a document: its bytes and the strong ETag of those bytes. */
interface Representation {
  body: Buffer;
  headers: Record<string, string>;
  etag: string;
}

function representation(body: Buffer, headers: Record<string, string>): Representation {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, etag, headers: { ...headers, ETag: etag, 'Content-Length': String(body.length) } };
}

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
export function staticDocument(contentType: string, content: string | object, headers: Record<string, string> = {}) {
  const body = Buffer.from(typeof content === 'string' ? content : JSON.stringify(content));
  const common = { 'Content-Type': contentType, 'Cache-Control': 'public, max-age=300, must-revalidate', Vary: 'Accept-Encoding', ...headers };
  const identity = representation(body, common);
  const compressed = gzipSync(body, { level: 9 });
  // A short document can come out longer compressed; it is then only ever sent as it is.
  const gzip = compressed.length < body.length ? representation(compressed, { ...common, 'Content-Encoding': 'gzip' }) : null;
  return (req: Request, res: Response) => {
    // No Accept-Encoding means identity (what the bench and plain HTTP/1.1 clients send).
    const chosen = gzip && req.headers['accept-encoding'] && req.acceptsEncodings('gzip', 'identity') === 'gzip' ? gzip : identity;
    res.set(chosen.headers);
    const held = req.headers['if-none-match'];
    if (held && held.split(',').some((t) => t.trim() === chosen.etag || t.trim() === `W/${chosen.etag}` || t.trim() === '*')) {
      res.removeHeader('Content-Length');
      res.status(304).end();
      return;
    }
    if (req.method === 'HEAD') res.status(200).end();
    else res.status(200).end(chosen.body);
  };
}
