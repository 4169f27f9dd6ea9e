import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { sealSourceToken } from '../../store/storedSecrets.js';
import type { AppDeps } from '../../context.js';
import { ApiError } from '../../errors.js';
import { connections, users } from '../../store/schema/index.js';
import type { Connection, SourceProvider } from './types.js';

export const PROVIDERS = ['siteA', 'siteB', 'fed'] as const satisfies readonly SourceProvider[];

// chess.com and lichess usernames: letters, digits, _ and - (lichess), 2–30 characters.
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_-]{1,29}$/;
// ECF rating code: six digits and an optional check letter (A–L without I).
const ECF_CODE = /^\d{6}[A-HJ-L]?$/i;

/**
 * Records (or re-points) the owner's connection to a source. Pointing a source at a different
 * account starts its cursor over; the games already stored stay. siteA/siteB also set the profile's
 * username for that site, which PGN imports use to find the owner's colour.
 */
export function connectSource(deps: AppDeps, userId: string, provider: SourceProvider, externalId: string, token?: string | null): Connection {
  const id = externalId.trim();
  if (provider === 'fed' ? !ECF_CODE.test(id) : !USERNAME.test(id)) {
    throw new ApiError(400, provider === 'fed' ? `"${id}" is not an ECF rating code (six digits and a check letter, e.g. 120787J)` : `"${id}" is not a valid username`);
  }
  if (token && provider !== 'siteB') throw new ApiError(400, 'only lichess (siteB) takes an API token');
  const now = deps.clock.now().toISOString();
  const value = provider === 'fed' ? id.toUpperCase() : id;
  return deps.store.sqlite
    .transaction(() => {
      const existing = deps.store.db.select().from(connections).where(and(eq(connections.userId, userId), eq(connections.provider, provider))).get();
      if (existing) {
        const same = existing.externalId.toLowerCase() === value.toLowerCase();
        deps.store.db
          .update(connections)
          .set({
            externalId: value,
            sourceToken: token === undefined ? existing.sourceToken : sealSourceToken(deps.store, token),
            ...(same ? {} : { cursor: '{}', status: 'never-synced' as const, statusMessage: null, lastSyncedAt: null }),
          })
          .where(eq(connections.id, existing.id))
          .run();
      } else {
        deps.store.db
          .insert(connections)
          .values({ id: randomUUID(), userId, provider, externalId: value, sourceToken: sealSourceToken(deps.store, token ?? null), status: 'never-synced', connectedAt: now, cursor: '{}' })
          .run();
      }
      if (provider === 'siteA') deps.store.db.update(users).set({ usernameSiteA: value }).where(eq(users.id, userId)).run();
      if (provider === 'siteB') deps.store.db.update(users).set({ usernameSiteB: value }).where(eq(users.id, userId)).run();
      return deps.store.db.select().from(connections).where(and(eq(connections.userId, userId), eq(connections.provider, provider))).get()!;
    })
    .immediate();
}

/** Removes the owner's connection to a source; the games it brought stay. False when there was none. */
export function disconnectSource(deps: AppDeps, userId: string, provider: SourceProvider): boolean {
  const res = deps.store.db.delete(connections).where(and(eq(connections.userId, userId), eq(connections.provider, provider))).run();
  return res.changes === 1;
}
