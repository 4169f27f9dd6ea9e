import { eq, sql } from 'drizzle-orm';
import type { Profile } from '../../../schemas/profile.js';
import type { PersonalCtx } from '../../context.js';
import type { Store } from '../../store/db.js';
import { ownerStamp } from '../../store/ownerStamps.js';
import { memoByOwner } from '../common/index.js';
import { preparedOnce } from '../../store/prepared.js';
import { connections } from '../../store/schema/index.js';

const connectionsQuery = (db: Store['db']) =>
  db.select().from(connections).where(eq(connections.userId, sql.placeholder('userId'))).orderBy(connections.connectedAt).prepare();

/**
 * The owner's profile. `lastSyncedAt` is the oldest last-successful-sync among the connections,
 * so it bounds the freshness of everything served; null while any connection has never synced.
 */
export function getProfile(ctx: PersonalCtx): Profile {
  // Kept per version of the owner's games (the count) and account (the user row, connections).
  return memoByOwner(ctx.store, ctx.user.id, 'get_profile', () => buildProfile(ctx), ['history', 'account']);
}

function buildProfile(ctx: PersonalCtx): Profile {
  const { user, store } = ctx;
  const conns = preparedOnce(store, connectionsQuery).all({ userId: user.id });
  // Kept by triggers: counting 100,000 index entries per call was most of this read.
  const gameCount = ownerStamp(store, user.id).games;
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
