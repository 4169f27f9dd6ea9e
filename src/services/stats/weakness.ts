import { and, eq, gte, isNotNull } from 'drizzle-orm';
import { DAY_MS, RANGE_DAYS, round2, round3 } from '../common/index.js';
import type { z } from 'zod';
import type { Classification } from '../../../schemas/common.js';
import { WeaknessInput, type WeaknessBucket, type WeaknessProfile, WEAKNESS_DIMENSIONS } from '../../../schemas/analysis.js';
import { parseClocks, parseTimeControl, plyClock } from '../../chess/clocks.js';
import { timeTroubleThreshold } from '../../chess/concepts.js';
import { classifyOpening, openingFamily } from '../../chess/openings.js';
import type { PersonalCtx } from '../../context.js';
import { games, analyses } from '../../store/schema/index.js';
import type { GameRow } from '../games/index.js';
import { ownerReviewsOf, type OwnedReview } from '../review/index.js';
import { binomialTailAtLeast } from './significance.js';

export const MIN_GAMES_TO_RANK = 5;
/**
 * A finding must be more than chance (issue 45 item 9: "0.1 more errors per 100 moves in the opening (11.1 against 11)"
 * and "1 error in 9 moves" were ranked): at least this many errors beyond what the owner's usual rate predicts…
 */
export const MIN_EXCESS_ERRORS = 2;
/** …and a one-sided binomial test against the usual rate below this level (significance.ts). */
export const SIGNIFICANCE = 0.05;
const ERROR_CLASSES: ReadonlySet<Classification> = new Set(['mistake', 'miss', 'blunder']);

export const WEAKNESS_DEFINITIONS = {
  error: 'An error is one of the owner\'s moves classified mistake, miss or blunder (a loss of at least 10 win-probability points; see get_game_analysis for the rules). Inaccuracies are not errors. Book moves are not counted at all.',
  errorRate:
    'errorRate = errors / moves, where moves are the owner\'s non-book moves. The overall error rate is the same ratio over every reviewed game of the owner in the window; a bucket\'s rate uses only the moves in that bucket.',
  ranking:
    'A bucket is ranked only when it has moves from at least 5 reviewed games, its error rate is strictly above the overall rate, and the excess is more than chance: ' +
    `at least ${MIN_EXCESS_ERRORS} errors beyond what the overall rate predicts for its moves, and a one-sided binomial test of its errors against the overall rate below ${SIGNIFICANCE} ` +
    '(the chance of that many errors or more in that many moves at the overall rate; exact, or the normal approximation with continuity correction for large samples); ' +
    'a bucket above the overall rate that fails this is unranked as within-chance. Ranked buckets are ordered by excessErrors = errors − overallErrorRate × moves (how many more errors than the owner\'s usual rate predicts), largest first. clock:unknown is counted but never ranked, and neither is a bucket that names a healthy state (clock:ok): it is nothing to act on.',
  buckets:
    'phase:opening|middlegame|endgame (divider-v1, phase of the position before the move); concept:<id> (moves carrying that concept tag, detector set v1); timeClass:<raw time class>; colour:white|black; opening:<opening family, the part of the opening name before the colon, from the game record or the opening table; unknown when neither names it>; clock:low (the clock before the move was under 10% of the base time, at least 10 s and at most 120 s), clock:ok, clock:unknown (no clock readings or no base time).',
};

/** One of the owner's moves, as much as the profile needs of it. */
export interface OwnerMove {
  classification: Classification;
  phase: string | null;
  concepts: string[];
  clockSecondsBefore: number | null;
}

/** What one reviewed game contributes. */
export interface ReviewedGame {
  gameId: string;
  colour: 'white' | 'black';
  timeClass: string;
  openingFamily: string;
  baseSeconds: number | null;
  moves: OwnerMove[];
}

/**
 * The owner's moves of a reviewed game, from its stored derivation (no replay): class, phase and
 * concepts as derived when the review completed, plus time_trouble from this game's own clocks
 * (the one concept the engine output cannot carry; rule in src/chess/concepts.ts).
 */
export function ownerMovesOf(game: GameRow, review: OwnedReview): OwnerMove[] {
  const clocks = parseClocks(game.clocks);
  const tc = parseTimeControl(game.timeControl);
  return review.derivation.plies.flatMap((p, i) => {
    if (p.colour !== game.colour) return [];
    const { clockSecondsBefore } = plyClock(clocks, i + 1, tc);
    const late = clockSecondsBefore !== null && !!tc?.baseSeconds && clockSecondsBefore < timeTroubleThreshold(tc.baseSeconds);
    return [{ classification: p.classification, phase: p.phase, concepts: late ? [...p.concepts, 'time_trouble'] : p.concepts, clockSecondsBefore }];
  });
}

type Dim = (typeof WEAKNESS_DIMENSIONS)[number];

/** Buckets that name the healthy state of a dimension: counted for context, never ranked as a weakness. */
const HEALTHY_STATES: ReadonlySet<string> = new Set(['clock:ok']);

function bucketsOfMove(g: ReviewedGame, p: OwnerMove): Array<[Dim, string]> {
  const out: Array<[Dim, string]> = [
    ['colour', g.colour],
    ['timeClass', g.timeClass],
    ['opening', g.openingFamily],
  ];
  if (p.phase) out.push(['phase', p.phase]);
  for (const id of p.concepts) out.push(['concept', id]);
  const before = p.clockSecondsBefore;
  out.push(['clock', before === null || !g.baseSeconds ? 'unknown' : before < timeTroubleThreshold(g.baseSeconds) ? 'low' : 'ok']);
  return out;
}

/** The profile of a set of reviewed games (pure; the service only loads them). */
export function weaknessProfile(reviewed: readonly ReviewedGame[]): Omit<WeaknessProfile, 'range' | 'from'> {
  const acc = new Map<string, { dimension: Dim; value: string; games: Set<string>; moves: number; errors: number }>();
  let moves = 0;
  let errors = 0;
  for (const g of reviewed) {
    for (const p of g.moves) {
      if (p.classification === 'book') continue;
      const isError = ERROR_CLASSES.has(p.classification);
      moves += 1;
      if (isError) errors += 1;
      for (const [dimension, value] of bucketsOfMove(g, p)) {
        const key = `${dimension}:${value}`;
        const b = acc.get(key) ?? { dimension, value, games: new Set<string>(), moves: 0, errors: 0 };
        b.games.add(g.gameId);
        b.moves += 1;
        if (isError) b.errors += 1;
        acc.set(key, b);
      }
    }
  }
  const overall = moves ? errors / moves : 0;
  const ranked: Array<WeaknessBucket & { rank: number }> = [];
  const unranked: WeaknessProfile['unranked'] = [];
  const lowSample: WeaknessBucket[] = [];
  const all = [...acc.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, b] of all) {
    const bucket: WeaknessBucket = {
      bucket: key,
      dimension: b.dimension,
      value: b.value,
      games: b.games.size,
      moves: b.moves,
      errors: b.errors,
      errorRate: b.moves ? round3(b.errors / b.moves) : 0,
      excessErrors: round2(b.errors - overall * b.moves),
    };
    if (b.games.size < MIN_GAMES_TO_RANK) lowSample.push(bucket);
    else if (key === 'clock:unknown') unranked.push({ ...bucket, reason: 'clock-unknown' });
    else if (HEALTHY_STATES.has(key)) unranked.push({ ...bucket, reason: 'healthy-state' });
    // Exact comparison (integers): bucket rate errors/moves above the overall errors/moves.
    else if (b.errors * moves <= errors * b.moves) unranked.push({ ...bucket, reason: 'at-or-below-overall' });
    else if (b.errors - overall * b.moves < MIN_EXCESS_ERRORS || binomialTailAtLeast(b.errors, b.moves, overall) >= SIGNIFICANCE) unranked.push({ ...bucket, reason: 'within-chance' });
    else ranked.push({ ...bucket, rank: 0 });
  }
  ranked.sort((x, y) => y.excessErrors - x.excessErrors || y.errorRate - x.errorRate || (x.bucket < y.bucket ? -1 : 1));
  ranked.forEach((b, i) => (b.rank = i + 1));
  return {
    reviewedGames: reviewed.length,
    moves,
    errors,
    overallErrorRate: round3(overall),
    definitions: WEAKNESS_DEFINITIONS,
    ranked,
    unranked,
    lowSample,
  };
}


/** get_weakness_profile over the owner's reviewed games whose playedAt falls in the window. */
export function getWeaknessProfile(ctx: PersonalCtx, input: z.output<typeof WeaknessInput>): WeaknessProfile {
  const from = input.range === 'all' ? null : new Date(ctx.clock.now().getTime() - RANGE_DAYS[input.range] * DAY_MS).toISOString();
  const rows = ctx.store.db
    .select({ game: games })
    .from(games)
    .innerJoin(analyses, and(eq(analyses.userId, games.userId), eq(analyses.movesKey, games.movesKey)))
    .where(and(eq(games.userId, ctx.user.id), isNotNull(games.movesKey), from ? gte(games.playedAt, from) : undefined))
    .all();
  const reviews = ownerReviewsOf(ctx.store, ctx.user.id, rows.map((r) => r.game.movesKey!));
  const reviewed: ReviewedGame[] = rows.map(({ game }) => {
    const moves = ownerMovesOf(game, reviews.get(game.movesKey!)!);
    const named = game.opening ?? (game.sanMoves ? classifyOpening(game.sanMoves.split(' '))?.name : null) ?? null;
    return {
      gameId: game.id,
      colour: game.colour,
      timeClass: game.timeClass,
      openingFamily: named ? openingFamily(named) : 'unknown',
      baseSeconds: parseTimeControl(game.timeControl)?.baseSeconds ?? null,
      moves,
    };
  });
  return { range: input.range, from, ...weaknessProfile(reviewed) };
}
