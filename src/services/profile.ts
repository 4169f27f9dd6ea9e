import { count, eq } from 'drizzle-orm';
import type { Profile } from '../../schemas/profile.js';
import type { PersonalCtx } from '../context.js';
import { connections, games } from '../store/schema/index.js';

/**
 * The owner's profile. `lastSyncedAt` is the oldest last-successful-sync among the connections,
 * so it bounds the freshness of everything served; null while any connection has never synced.
 */
export function getProfile(ctx: PersonalCtx): Profile {
  const { user, store } = ctx;
  const conns = store.db.select().from(connections).where(eq(connections.userId, user.id)).orderBy(connections.connectedAt).all();
  const gameCount = store.db.select({ n: count() }).from(games).where(eq(games.userId, user.id)).get()?.n ?? 0;
  const synced = conns.map((c) => c.lastSyncedAt);
  const lastSyncedAt = synced.length === 0 || synced.some((s) => s === null) ? null : (synced as string[]).sort()[0];
  return {
    displayName: user.displayName,
    email: user.email,
    memberSince: user.createdAt,
    usernames: { siteA: user.usernameSiteA, siteB: user.usernameSiteB },
    connections: conns.map((c) => ({
      provider: c.provider,
      account: c.externalId,
      status: c.status,
      statusMessage: c.statusMessage,
      lastSyncedAt: c.lastSyncedAt,
      connectedAt: c.connectedAt,
      details: c.details ? (JSON.parse(c.details) as Profile['connections'][number]['details']) : null,
    })),
    lastSyncedAt,
    totals: { games: gameCount, connections: conns.length },
  };
}
