import type { Clock } from '../../clock.js';
import type { Store } from '../../store/db.js';
import { windowStart } from './fetch.js';
import { ensureScout, setScoutStatus, storeScoutGames, type ScoutGameRow, type ScoutProviderId } from './scoutStore.js';

/** What the page and the resource say of the demo store's made-up player. */
export const DEMO_SCOUT_MESSAGE = 'demo data: a made-up player, not a real account, never fetched (scout a real player to see theirs)';

/**
 * Stores a made-up scouted player for the demo store through the scout's own writer (the same
 * bounds, the same window trimming), marked `demo` so no fetch ever queries the real site for it.
 */
export function storeDemoScout(store: Store, clock: Clock, userId: string, provider: ScoutProviderId, username: string, rows: readonly Omit<ScoutGameRow, 'scoutId'>[], months: number): void {
  const scout = ensureScout(store, clock, userId, provider, username, { maxGames: Math.max(rows.length, 1), months });
  const oldestKept = windowStart(clock.now(), months).toISOString();
  storeScoutGames(store, scout, rows.map((r) => ({ ...r, scoutId: scout.id })), {}, oldestKept);
  setScoutStatus(store, scout.id, { status: 'demo', statusMessage: DEMO_SCOUT_MESSAGE, fetchedAt: clock.now().toISOString() });
}
