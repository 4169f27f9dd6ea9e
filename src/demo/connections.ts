import { and, eq, inArray, like } from 'drizzle-orm';
import { DEMO_CONNECTION_MESSAGE } from '../../schemas/profile.js';
import type { Store } from '../store/db.js';
import { connections, users } from '../store/schema/index.js';

/** The demo owner's made-up accounts (src/demo/games.ts seeds them). */
export const DEMO_ACCOUNTS = { siteA: 'demo_knightmare', siteB: 'DemoKnightmare', fed: '271828K' } as const;


/** A demo connection row: marked `demo`, so no sync (manual or scheduled) ever queries the real sites. */
export const demoConnectionState = { status: 'demo' as const, statusMessage: DEMO_CONNECTION_MESSAGE };

/**
 * Demo stores made before connections were marked kept their made-up accounts as `ok` or `error`
 * (and `serve` synced them). Run at every start; a no-op once done. Only the demo owners' rows
 * still pointing at the made-up accounts are touched: a connection re-pointed at a real account stays.
 */
export function markDemoConnections(store: Store): number {
  const demoOwners = store.db.select({ id: users.id }).from(users).where(like(users.email, 'demo%@example.com')).all().map((u) => u.id);
  if (!demoOwners.length) return 0;
  let changed = 0;
  for (const [provider, externalId] of Object.entries(DEMO_ACCOUNTS) as Array<[keyof typeof DEMO_ACCOUNTS, string]>) {
    changed += store.db
      .update(connections)
      .set(demoConnectionState)
      .where(and(inArray(connections.userId, demoOwners), eq(connections.provider, provider), eq(connections.externalId, externalId), inArray(connections.status, ['never-synced', 'syncing', 'ok', 'error'])))
      .run().changes;
  }
  return changed;
}
