// Preparation (issue 29): scouting a public player's games, and the owner's repertoire against their own.
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import { playerReport } from './player.js';
import { scoutRuns } from './scout.js';
import { findScout, type ScoutProviderId } from './scoutStore.js';

export { repertoireDeviations } from './deviations.js';
// The trie of games' first moves, for another domain that walks an owner's lines (peers/positions.ts).
export { lineTrie, type LineNode } from './lineTrie.js';
// The owner's games of a colour as the opening trees read them (peers/view.ts compares the same games).
export { ownerLines } from './meetings.js';
export { notScouted, ownScout, playerReport, scoutTree } from './player.js';
// The polite source client with a caller's sleep, signal and request count (peers/runs.ts fetches through it).
export { politeClient } from './fetch.js';
export { declareRepertoire, loadRepertoire, removeRepertoire } from './repertoire.js';
export { SCOUT_INTERRUPTED, ScoutRuns, scoutRuns, setScoutRuns } from './scout.js';
export { listScouts, removeScout, type ScoutProviderId } from './scoutStore.js';
export { storeDemoScout } from './demoScout.js';

/** A stored scout older than this is fetched again (incrementally) when an agent reads the player. */
export const SCOUT_REFRESH_MS = 12 * 3_600_000;

/**
 * The player as an agent reads it (chess-footprint://players/…): the owner's scout, started when the owner
 * never scouted the player and refreshed when the last fetch is older than SCOUT_REFRESH_MS. A refresh the
 * owner's scout bucket refuses still serves what is stored; a first scout it refuses is the 429.
 */
export function readPlayer(ctx: PersonalCtx, provider: ScoutProviderId, username: string): ReturnType<typeof playerReport> {
  const runs = scoutRuns(ctx);
  const found = findScout(ctx.store, ctx.user.id, provider, username);
  const stale = found?.status !== 'demo' && (!found || (found.fetchedAt !== null && ctx.clock.now().getTime() - Date.parse(found.fetchedAt) > SCOUT_REFRESH_MS) || found.status === 'never-fetched');
  if (stale) {
    try {
      // A scout never fetched was charged when it was asked for: resuming it (its process ended) is not charged again.
      runs.start(ctx.user.id, provider, username, {}, found?.status !== 'never-fetched');
    } catch (err) {
      if (!found || !(err instanceof ApiError) || err.status !== 429) throw err;
    }
  }
  return playerReport(ctx, findScout(ctx.store, ctx.user.id, provider, username)!);
}
