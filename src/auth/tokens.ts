import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { User } from '../context.js';
import type { Store } from '../store/db.js';
import { sha256Hex } from '../store/secretKey.js';
import { tokens, users } from '../store/schema/index.js';
import { preparedOnce } from '../store/prepared.js';
import { stampLastUsed } from './lastUsed.js';

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

/**
 * The token lookup, prepared once per store: building the drizzle query per request cost more than
 * running it. No cache in front of it, so a revocation (from this process or the CLI) is refused at once.
 */
const lookupQuery = (db: Store['db']) =>
  db
    .select({ user: users, id: tokens.id })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(
      and(
        eq(tokens.fingerprint, sql.placeholder('fingerprint')),
        isNull(tokens.revokedAt),
        or(isNull(tokens.expiresAt), gt(tokens.expiresAt, sql.placeholder('now'))),
      ),
    )
    .prepare();

/** The owner of a live token, or null: malformed, unknown, revoked and expired tokens look the same. */
export function verifyToken(store: Store, token: string | undefined, clock?: Clock): User | null {
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const now = clock?.now() ?? new Date();
  const row = preparedOnce(store, lookupQuery).get({ fingerprint: fingerprint(token), now: now.toISOString() });
  if (!row) return null;
  stampLastUsed(store, `token:${row.id}`, now, () => store.db.update(tokens).set({ lastUsedAt: now.toISOString() }).where(eq(tokens.id, row.id)).run());
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
