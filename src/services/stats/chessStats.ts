import type { Stats, StatsInput } from '../../../schemas/aggregates.js';
import type { PersonalCtx } from '../../context.js';
import { memoByOwner } from '../common/index.js';
import * as b from './blocks.js';
import { insightBlocks } from './insights/index.js';
import { countGames, loadStatGames } from './load.js';
import { isoDate, rangeStart } from '../common/index.js';

/** Every block of get_chess_stats over the window; atYourLevel (the peers' domain, above this one) is added by the tool. */
export type WindowStats = Omit<Stats, 'atYourLevel'>;

/** Aggregates cover at most this many of the most recent games in the window (spec section 8). */
export const STATS_CAP = 10_000;

/**
 * Every block is a function of the window's games alone (and of today's date, through the window), so
 * the whole answer is kept per version of the owner's games: the 10,000-game load and the blocks run
 * once after each change, not on every read. A block that needs the clock more finely than the date
 * must not be added inside this memo.
 */
export function chessStats(ctx: PersonalCtx, input: StatsInput): WindowStats {
  const now = ctx.clock.now();
  const from = rangeStart(input.range, now);
  const key = `get_chess_stats ${isoDate(now)} ${from} ${JSON.stringify(input)}`;
  return memoByOwner(ctx.store, ctx.user.id, key, () => computeStats(ctx, input, now, from));
}

function computeStats(ctx: PersonalCtx, input: StatsInput, now: Date, from: string | null): WindowStats {
  const query = {
    providers: input.provider ?? null,
    timeClasses: input.timeClass ?? null,
    opening: input.opening ?? null,
    fromIso: from ? `${from}T00:00:00.000Z` : null,
    toIso: null,
  };
  const { games, earliest } = countGames(ctx.store, ctx.user.id, query);
  const newest = loadStatGames(ctx.store, ctx.user.id, query, STATS_CAP);
  const chrono = [...newest].reverse();
  return {
    filters: { range: input.range, providers: query.providers, timeClasses: query.timeClasses, opening: query.opening },
    window: { from: from ?? (earliest ? earliest.slice(0, 10) : isoDate(now)), to: null },
    games,
    capped: games > STATS_CAP,
    gamesAggregated: newest.length,
    totals: b.totals(newest),
    accuracy: b.accuracyOf(newest),
    onlineVsOverTheBoard: b.onlineVsOverTheBoard(newest),
    performance: b.performance(newest),
    bestWin: b.bestWin(newest),
    worstDefeat: b.worstDefeat(newest),
    streaks: b.streaks(chrono),
    lastTen: b.lastTen(newest),
    weekdays: b.weekdays(newest),
    opponentStrength: b.opponentStrength(newest),
    gameLength: b.gameLength(newest),
    openings: b.openings(newest),
    monthly: b.monthly(chrono),
    ...insightBlocks(ctx.store, ctx.user.id, newest),
  };
}
