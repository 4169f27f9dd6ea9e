import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { User } from '../context.js';
import type { Store } from '../store/db.js';
import { sha256Hex } from '../store/secretKey.js';
import { tokens, users } from '../store/schema/index.js';

export const TOKEN_PATTERN = /^cfp_[A-Za-z0-9_-]{43}$/;

/** SHA-256 of the whole token, hex: the only form in which a token is stored. */
export function fingerprint(token: string): string {
  return sha256Hex(token);
}

/** `cfp_` + 43 URL-safe characters: base64url of 32 random bytes. */
export function newTokenSecret(): string {
  return `cfp_${randomBytes(32).toString('base64url')}`;
}

export interface IssuedToken {
  id: string;
  name: string;
  token: string;
  createdAt: string;
  /** null: never expires. */
  expiresAt: string | null;
}

export function issueToken(store: Store, clock: Clock, userId: string, name: string, opts: { expiresInDays?: number } = {}): IssuedToken {
  const token = newTokenSecret();
  const now = clock.now();
  const expiresAt = opts.expiresInDays === undefined ? null : new Date(now.getTime() + opts.expiresInDays * 86_400_000).toISOString();
  const row = { id: randomUUID(), userId, name, fingerprint: fingerprint(token), createdAt: now.toISOString(), expiresAt };
  store.db.insert(tokens).values(row).run();
  return { id: row.id, name, token, createdAt: row.createdAt, expiresAt };
}

/** `last_used_at` is written at most this often per token: it says "in use lately", not "this request". */
export const LAST_USED_RESOLUTION_MS = 60_000;
const lastStamped = new WeakMap<Store, Map<string, number>>();

/**
 * Stamps `last_used_at` after the current request's work (setImmediate), and only when the previous
 * stamp from this process is a minute old, so a busy agent costs one small write a minute per token.
 */
function stampUse(store: Store, tokenId: string, now: Date): void {
  let seen = lastStamped.get(store);
  if (!seen) lastStamped.set(store, (seen = new Map()));
  const last = seen.get(tokenId);
  if (last !== undefined && now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
  seen.set(tokenId, now.getTime());
  setImmediate(() => {
    try {
      store.db.update(tokens).set({ lastUsedAt: now.toISOString() }).where(eq(tokens.id, tokenId)).run();
    } catch {
      // The store was closed in between (shutdown): the stamp is best-effort by design.
    }
  }).unref();
}

/** The owner of a live token, or null: malformed, unknown, revoked and expired tokens look the same. */
export function verifyToken(store: Store, token: string | undefined, clock?: Clock): User | null {
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const now = clock?.now() ?? new Date();
  const row = store.db
    .select({ user: users, id: tokens.id })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(and(eq(tokens.fingerprint, fingerprint(token)), isNull(tokens.revokedAt), or(isNull(tokens.expiresAt), gt(tokens.expiresAt, now.toISOString()))))
    .get();
  if (!row) return null;
  stampUse(store, row.id, now);
  return row.user;
}

export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

export function listTokens(store: Store, userId: string) {
  return store.db
    .select({ id: tokens.id, name: tokens.name, createdAt: tokens.createdAt, lastUsedAt: tokens.lastUsedAt, expiresAt: tokens.expiresAt, revokedAt: tokens.revokedAt })
    .from(tokens)
    .where(eq(tokens.userId, userId))
    .orderBy(tokens.createdAt)
    .all();
}

/**
 * Issues a token named `name` and revokes the user's earlier live tokens of that name: for a token
 * that lives in one place (Claude Desktop's configuration), re-running replaces instead of piling up.
 */
export function replaceNamedToken(store: Store, clock: Clock, userId: string, name: string): IssuedToken & { revoked: number } {
  return store.sqlite
    .transaction(() => {
      const revoked = store.db
        .update(tokens)
        .set({ revokedAt: clock.now().toISOString() })
        .where(and(eq(tokens.userId, userId), eq(tokens.name, name), isNull(tokens.revokedAt)))
        .run().changes;
      return { ...issueToken(store, clock, userId, name), revoked };
    })
    .immediate();
}

/** Revokes one of the user's tokens; false when the id is not theirs or already revoked. */
export function revokeToken(store: Store, clock: Clock, userId: string, tokenId: string): boolean {
  const res = store.db
    .update(tokens)
    .set({ revokedAt: clock.now().toISOString() })
    .where(and(eq(tokens.id, tokenId), eq(tokens.userId, userId), isNull(tokens.revokedAt)))
    .run();
  return res.changes === 1;
}
