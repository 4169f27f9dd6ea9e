import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { SESSION_COOKIE, SESSION_TTL_MS, verifySession, type SessionUser } from '../auth/sessions.js';
import type { AppDeps } from '../context.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The scheme the client used, as express's req.protocol gives it (no proxy is trusted). */
export function requestProtocol(req: IncomingMessage): 'http' | 'https' {
  return (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
}

/** The value of one cookie from the Cookie header (no parser dependency for one name). */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * May the session cookie act for this request? SameSite=Strict keeps the cookie off cross-site
 * requests in browsers that honour it; this is the second lock (OWASP CSRF cheat sheet: verify the
 * origin with standard headers). An Origin header, when present, must be this server's own (the
 * configured base URL or the Host the browser addressed). A state-changing request must carry one;
 * a read without one is refused only when Fetch Metadata says it came from another site.
 */
export function sameOrigin(req: IncomingMessage, baseUrl: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const own = new Set([new URL(baseUrl).origin]);
    if (req.headers.host) own.add(`${requestProtocol(req)}://${req.headers.host}`);
    return own.has(origin);
  }
  if (!SAFE_METHODS.has(req.method ?? '')) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

/**
 * Whether Fetch Metadata says a browser sent this request from another site (W3C Fetch Metadata:
 * `Sec-Fetch-Site` cross-site or same-site), whatever else it carries or omits: sign-in refuses it
 * even with no Origin header, as the cookie checks above do.
 */
export function fromAnotherSite(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}

export const crossOriginMessage =
  'the session cookie is accepted only from the dashboard’s own pages (Origin check); other clients send Authorization: Bearer cfp_…';

/**
 * The dashboard session a request acts with: when it has no Authorization header but a session
 * cookie, the origin is checked ('cross-origin' when it fails) and the session verified. Null when
 * there is none: a bearer token, when given, always wins and is checked by the route itself.
 */
export function requestSession(req: IncomingMessage, deps: AppDeps, baseUrl: string): SessionUser | null | 'cross-origin' {
  if (req.headers.authorization !== undefined) return null;
  const value = readCookie(req, SESSION_COOKIE);
  if (value === undefined) return null;
  if (!sameOrigin(req, baseUrl)) return 'cross-origin';
  return verifySession(deps.store, deps.clock, value);
}

/** Express middleware for routes that accept the dashboard session: its owner goes in `res.locals.session`. */
export function sessionCookieAuth(deps: AppDeps, baseUrl: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const session = requestSession(req, deps, baseUrl);
    if (session === 'cross-origin') return void res.status(403).json({ error: crossOriginMessage });
    if (session) res.locals.session = session;
    next();
  };
}

/** Set-Cookie for a new session: HttpOnly (no script reads it), SameSite=Strict, Secure behind https. */
export function sessionCookie(value: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(SESSION_TTL_MS / 1000)}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}
