import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * A document that never changes while the process runs (the discovery set is a pure function of the
 * tool registry and the base URL), encoded once: each request writes the same bytes, and a client
 * holding the strong ETag gets a 304 without a body (RFC 9110 section 13.1.2). Caches may keep it five minutes
 * and then revalidate: a new server version changes the bytes and so the ETag.
 */
export function staticDocument(contentType: string, content: string | object, headers: Record<string, string> = {}) {
  const body = Buffer.from(typeof content === 'string' ? content : JSON.stringify(content));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const fixed = { 'Content-Type': contentType, ETag: etag, 'Cache-Control': 'public, max-age=300, must-revalidate', ...headers };
  return (req: Request, res: Response) => {
    res.set(fixed);
    const held = req.headers['if-none-match'];
    if (held && held.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === '*')) {
      res.status(304).end();
      return;
    }
    res.set('Content-Length', String(body.length));
    if (req.method === 'HEAD') res.status(200).end();
    else res.status(200).end(body);
  };
}
