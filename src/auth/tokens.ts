import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { User } from '../context.js';
import type { Store } from '../store/db.js';
import { sha256Hex } from '../store/secretKey.js';
import { ownerStamps, tokens, users } from '../store/schema/index.js';
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
 * running it. It reads the owner's account version in the same statement (one snapshot), so what
 * is kept below can never be newer than the version it is kept under.
 */
const lookupQuery = (db: Store['db']) =>
  db
    .select({ user: users, id: tokens.id, expiresAt: tokens.expiresAt, accountVersion: ownerStamps.accountVersion })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .leftJoin(ownerStamps, eq(ownerStamps.userId, users.id))
    .where(
      and(
        eq(tokens.fingerprint, sql.placeholder('fingerprint')),
        isNull(tokens.revokedAt),
        or(isNull(tokens.expiresAt), gt(tokens.expiresAt, sql.placeholder('now'))),
      ),
    )
    .prepare();

const accountVersionQuery = (_db: Store['db'], sqlite: Store['sqlite']) => sqlite.prepare('SELECT account_version FROM owner_stamps WHERE user_id = ?').pluck();

interface Verified {
  user: User;
  tokenId: string;
  expiresAt: string | null;
  accountVersion: number;
}
/** Tokens verified lately, by fingerprint, per store; the least recently verified go first. */
const verified = new WeakMap<Store, Map<string, Verified>>();
const MAX_VERIFIED = 1024;

/**
 * The owner of a live token, or null: malformed, unknown, revoked and expired tokens look the same.
 * A token verified before is accepted again on one primary-key read, while its owner's account
 * version is unchanged: triggers bump it on every revocation, expiry change or deletion of a token
 * and every change to the user (src/store/ownerStamps.ts), from any process, so a revocation is
 * refused on the very next request. The expiry itself is compared with the clock each time. The
 * join this replaces was the largest part of a personal read's server time (issue 13's profile).
 */
export function verifyToken(store: Store, token: string | undefined, clock?: Clock): User | null {
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const now = clock?.now() ?? new Date();
  const nowIso = now.toISOString();
  const fp = fingerprint(token);
  let kept = verified.get(store);
  if (!kept) verified.set(store, (kept = new Map()));
  let hit = kept.get(fp);
  if (hit) {
    kept.delete(fp);
    if ((hit.expiresAt !== null && hit.expiresAt <= nowIso) || preparedOnce(store, accountVersionQuery).get(hit.user.id) !== hit.accountVersion) hit = undefined;
  }
  if (!hit) {
    const row = preparedOnce(store, lookupQuery).get({ fingerprint: fp, now: nowIso });
    if (!row) return null;
    hit = { user: row.user, tokenId: row.id, expiresAt: row.expiresAt, accountVersion: row.accountVersion ?? -1 };
  }
  // Every user has a stamp row once the triggers are installed; one without is simply never kept.
  if (hit.accountVersion >= 0) {
    kept.set(fp, hit);
    if (kept.size > MAX_VERIFIED) kept.delete(kept.keys().next().value!);
  }
  const { tokenId } = hit;
  stampLastUsed(store, `token:${tokenId}`, now, () => store.db.update(tokens).set({ lastUsedAt: nowIso }).where(eq(tokens.id, tokenId)).run());
  return hit.user;
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
