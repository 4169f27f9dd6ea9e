import type { IncomingMessage, ServerResponse } from 'node:http';

/** The path and the query of a request, as the handlers in front of the express app read them (app.ts). */
export interface RequestTarget {
  /** Still percent-encoded, as express matches routes. */
  path: string;
  /** Without its `?`; empty when there is none. */
  query: string;
}

/** The path and query of a request target, also in absolute form (RFC 9112 section 3.2.2). */
export function requestTarget(url: string): RequestTarget {
  const start = url.startsWith('/') ? 0 : (/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i.exec(url)?.[0].length ?? 0);
  const q = url.indexOf('?', start);
  return q < 0 ? { path: url.slice(start) || '/', query: '' } : { path: url.slice(start, q) || '/', query: url.slice(q + 1) };
}

/** A handler in front of the express app: answers a request and says true, or says false and leaves it to the next. */
export type FrontHandler = (req: IncomingMessage, res: ServerResponse, target: RequestTarget) => boolean;
