import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { User } from '../context.js';
import type { Store } from '../store/db.js';
import { tokens, users } from '../store/schema/index.js';

export const TOKEN_PATTERN = /^cfp_[A-Za-z0-9_-]{43}$/;

/** SHA-256 of the whole token, hex: the only form in which a token is stored. */
export function fingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex');
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
}

export function issueToken(store: Store, clock: Clock, userId: string, name: string): IssuedToken {
  const token = newTokenSecret();
  const row = { id: randomUUID(), userId, name, fingerprint: fingerprint(token), createdAt: clock.now().toISOString() };
  store.db.insert(tokens).values(row).run();
  return { id: row.id, name, token, createdAt: row.createdAt };
}

/** The owner of a live token, or null: malformed, unknown and revoked tokens look the same. */
export function verifyToken(store: Store, token: string | undefined): User | null {
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const row = store.db
    .select({ user: users })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(and(eq(tokens.fingerprint, fingerprint(token)), isNull(tokens.revokedAt)))
    .get();
  return row?.user ?? null;
}

export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

export function listTokens(store: Store, userId: string) {
  return store.db
    .select({ id: tokens.id, name: tokens.name, createdAt: tokens.createdAt, lastUsedAt: tokens.lastUsedAt, revokedAt: tokens.revokedAt })
    .from(tokens)
    .where(eq(tokens.userId, userId))
    .orderBy(tokens.createdAt)
    .all();
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
