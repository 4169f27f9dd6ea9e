import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { User } from '../context.js';
import type { Store } from '../store/db.js';
import { sessions, signInCodes, users } from '../store/schema/index.js';
// last_used_at, like a token's, is written at most once a minute (LAST_USED_RESOLUTION_MS): a read stays a read.
import { LAST_USED_RESOLUTION_MS, stampLastUsed } from './lastUsed.js';
import { fingerprint, verifyToken } from './tokens.js';

/** A printed sign-in link works once, for ten minutes (like a notebook server's token link). */
export const SIGN_IN_CODE_TTL_MS = 10 * 60_000;
/** A dashboard session lasts thirty days from sign-in; signing out or revoking ends it sooner. */
export const SESSION_TTL_MS = 30 * 24 * 3_600_000;
export const SESSION_COOKIE = 'cfp_session';
// Both secrets are 32 random bytes, base64url: 43 characters.
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const secret = () => randomBytes(32).toString('base64url');

/** A new one-time sign-in code for the user; only its fingerprint is stored. */
export function issueSignInCode(store: Store, clock: Clock, userId: string): string {
  const code = secret();
  const now = clock.now();
  store.sqlite.transaction(() => {
    // Spent and expired codes are of no further use: drop them as new ones are made.
    store.db.delete(signInCodes).where(or(lt(signInCodes.expiresAt, now.toISOString()), isNotNull(signInCodes.usedAt))).run();
    store.db
      .insert(signInCodes)
      .values({ fingerprint: fingerprint(code), userId, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + SIGN_IN_CODE_TTL_MS).toISOString() })
      .run();
  })();
  return code;
}

export interface OpenedSession {
  id: string;
  /** The cookie value: shown to the browser once, stored only as a fingerprint. */
  secret: string;
  user: User;
  expiresAt: string;
}

function openSession(store: Store, clock: Clock, user: User, method: 'link' | 'token', userAgent: string | null): OpenedSession {
  const value = secret();
  const now = clock.now();
  const row = {
    id: randomUUID(),
    userId: user.id,
    fingerprint: fingerprint(value),
    method,
    userAgent: userAgent ? userAgent.slice(0, 200) : null,
    createdAt: now.toISOString(),
    lastUsedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
    revokedAt: null,
  };
  store.db.insert(sessions).values(row).run();
  return { id: row.id, secret: value, user, expiresAt: row.expiresAt };
}

/**
 * Spends a one-time code and opens a session, in one transaction so two browsers racing with the
 * same link cannot both get in. Unknown, used and expired codes all answer null, alike.
 */
export function redeemSignInCode(store: Store, clock: Clock, code: unknown, userAgent: string | null): OpenedSession | null {
  if (typeof code !== 'string' || !SECRET_PATTERN.test(code)) return null;
  const now = clock.now().toISOString();
  return store.sqlite
    .transaction(() => {
      const spent = store.db
        .update(signInCodes)
        .set({ usedAt: now })
        .where(and(eq(signInCodes.fingerprint, fingerprint(code)), isNull(signInCodes.usedAt), gt(signInCodes.expiresAt, now)))
        .returning({ userId: signInCodes.userId })
        .get();
      if (!spent) return null;
      const user = store.db.select().from(users).where(eq(users.id, spent.userId)).get();
      return user ? openSession(store, clock, user, 'link', userAgent) : null;
    })
    .immediate();
}

/** Pasting a live personal access token opens a session for its owner; the token itself is not kept. */
export function signInWithToken(store: Store, clock: Clock, token: unknown, userAgent: string | null): OpenedSession | null {
  const user = verifyToken(store, typeof token === 'string' ? token.trim() : undefined);
  return user ? openSession(store, clock, user, 'token', userAgent) : null;
}

export interface SessionUser {
  user: User;
  sessionId: string;
}

/** The owner of a live session cookie, or null: malformed, unknown, expired and revoked look the same. */
export function verifySession(store: Store, clock: Clock, value: string | undefined): SessionUser | null {
  if (!value || !SECRET_PATTERN.test(value)) return null;
  const now = clock.now();
  const row = store.db
    .select({ user: users, id: sessions.id, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.fingerprint, fingerprint(value)), isNull(sessions.revokedAt), gt(sessions.expiresAt, now.toISOString())))
    .get();
  if (!row) return null;
  // The stored stamp also covers other processes (serve and a CLI sign-in) stamping the same session.
  if (!row.lastUsedAt || now.getTime() - Date.parse(row.lastUsedAt) >= LAST_USED_RESOLUTION_MS) {
    stampLastUsed(store, `session:${row.id}`, now, () => store.db.update(sessions).set({ lastUsedAt: now.toISOString() }).where(eq(sessions.id, row.id)).run());
  }
  return { user: row.user, sessionId: row.id };
}

/** The user's live sessions, newest first (never the secrets). */
export function listSessions(store: Store, clock: Clock, userId: string) {
  return store.db
    .select({ id: sessions.id, method: sessions.method, userAgent: sessions.userAgent, createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, clock.now().toISOString())))
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .all();
}

/** Ends one of the user's sessions; false when the id is not theirs or it has ended already. */
export function revokeSession(store: Store, clock: Clock, userId: string, sessionId: string): boolean {
  const res = store.db
    .update(sessions)
    .set({ revokedAt: clock.now().toISOString() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .run();
  return res.changes === 1;
}
