import type { NextFunction, Request, Response } from 'express';
import { SESSION_COOKIE, SESSION_TTL_MS, verifySession, type SessionUser } from '../auth/sessions.js';
import type { AppDeps } from '../context.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The value of one cookie from the Cookie header (no parser dependency for one name). */
export function readCookie(req: Request, name: string): string | undefined {
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
export function sameOrigin(req: Request, baseUrl: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const own = new Set([new URL(baseUrl).origin]);
    if (req.headers.host) own.add(`${req.protocol}://${req.headers.host}`);
    return own.has(origin);
  }
  if (!SAFE_METHODS.has(req.method)) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

export const crossOriginMessage =
  'the session cookie is accepted only from the dashboard’s own pages (Origin check); other clients send Authorization: Bearer cfp_…';

/**
 * Express middleware for routes that accept the dashboard session: when the request has no
 * Authorization header but a session cookie, it checks the origin and puts the session's owner in
 * `res.locals.session`. A bearer token, when given, always wins and is checked by the route itself.
 */
export function sessionCookieAuth(deps: AppDeps, baseUrl: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.headers.authorization !== undefined) return next();
    const value = readCookie(req, SESSION_COOKIE);
    if (value === undefined) return next();
    if (!sameOrigin(req, baseUrl)) return void res.status(403).json({ error: crossOriginMessage });
    const session = verifySession(deps.store, deps.clock, value);
    if (session) res.locals.session = session satisfies SessionUser;
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
