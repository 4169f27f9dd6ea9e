import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FrontHandler } from './front.js';

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

export type DocumentHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** The q-value of each content coding an Accept-Encoding header lists (RFC 9110 section 12.5.3), lower-cased. */
function codingWeights(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [coding, ...params] = part.split(';');
    const name = coding.trim().toLowerCase();
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)).find(Boolean);
    weights.set(name, q ? Number(q[1]) : 1);
  }
  return weights;
}

/**
 * Whether the gzip copy is the one to send (RFC 9110 section 12.5.3): gzip must be acceptable
 * (named, or covered by `*`, with a q-value above 0) and weigh no less than identity, which is
 * acceptable unless `identity;q=0` or `*;q=0` (without an `identity` entry) excludes it. No header
 * means identity (what the bench and plain HTTP/1.1 clients send).
 */
export function prefersGzip(header: string | undefined): boolean {
  if (!header) return false;
  const weights = codingWeights(header);
  const gzip = weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*') ?? 0;
  const identity = weights.get('identity') ?? weights.get('*') ?? 1;
  return gzip > 0 && gzip >= identity;
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
export function staticDocument(contentType: string, content: string | object, headers: Record<string, string> = {}): DocumentHandler {
  const body = Buffer.from(typeof content === 'string' ? content : JSON.stringify(content));
  const common = { 'Content-Type': contentType, 'Cache-Control': 'public, max-age=300, must-revalidate', Vary: 'Accept-Encoding', ...headers };
  const identity = representation(body, common);
  const compressed = gzipSync(body, { level: 9 });
  // A short document can come out longer compressed; it is then only ever sent as it is.
  const gzip = compressed.length < body.length ? representation(compressed, { ...common, 'Content-Encoding': 'gzip' }) : null;
  return (req: IncomingMessage, res: ServerResponse) => {
    const chosen = gzip && prefersGzip(req.headers['accept-encoding']) ? gzip : identity;
    const held = req.headers['if-none-match'];
    if (held && held.split(',').some((t) => t.trim() === chosen.etag || t.trim() === `W/${chosen.etag}` || t.trim() === '*')) {
      res.writeHead(304, chosen.notModified).end();
      return;
    }
    res.writeHead(200, chosen.headers);
    if (req.method === 'HEAD') res.end();
    else res.end(chosen.body);
  };
}

/**
 * The discovery documents, found by path in a map ahead of the express app (app.ts): their bytes
 * are ready, and express's per-request machinery would cost more than writing them. Paths match as
 * express routes do, ignoring case and one trailing slash; other methods go on to the app (a 404).
 */
export function documentsByPath(documents: ReadonlyArray<readonly [string, DocumentHandler]>): FrontHandler {
  const byPath = new Map(documents.map(([path, handler]) => [path.toLowerCase(), handler]));
  return (req, res, { path }) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const handler = byPath.get((path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase());
    handler?.(req, res);
    return handler !== undefined;
  };
}
