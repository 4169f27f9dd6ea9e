import type { Stats } from '../../../../schemas/aggregates.js';
import type { Store } from '../../../store/db.js';
import { ownerMoveFacts, ownerPawnsAfterPlies, ownerReviewDerivations, type OwnerMoveFact } from '../../review/index.js';
import type { StatGame } from '../blocks.js';
import { accuracyByPhase } from './accuracyByPhase.js';
import { parseClocks } from '../../../chess/clocks.js';
import { loadInsightGames } from './load.js';
import { EVAL_PLIES, openingsByEval } from './openingsByEval.js';
import { timeManagement } from './timeManagement.js';
import { trend } from './trend.js';

export type InsightBlocks = Pick<Stats, 'accuracyByPhase' | 'timeManagement' | 'openingsByEval' | 'trend'>;

/**
 * The four insight blocks of get_chess_stats over exactly the games the other aggregates cover
 * (`newest`, newest first, already capped). Each game the owner reviewed is read once, as its stored
 * derivation (src/services/review/reviewReads.ts), for both its move facts and its evaluations after moves 10 and 15.
 */
export function insightBlocks(store: Store, userId: string, newest: readonly StatGame[]): InsightBlocks {
  const games = loadInsightGames(store, userId, newest);
  const reviews = ownerReviewDerivations(
    store,
    userId,
    games.flatMap((g) => (g.movesKey ? [g.movesKey] : [])),
  );
  const facts = new Map<string, OwnerMoveFact[]>();
  const evals = new Map<string, readonly [number | null, number | null]>();
  for (const g of games) {
    const review = g.movesKey ? reviews.get(g.movesKey) : undefined;
    if (!review) continue;
    facts.set(g.id, ownerMoveFacts(review, g.colour, parseClocks(g.clocksJson), g.timeControl));
    const [at10, at15] = ownerPawnsAfterPlies(review, g.colour, [EVAL_PLIES.afterMove10, EVAL_PLIES.afterMove15]);
    evals.set(g.id, [at10, at15]);
  }
  return {
    accuracyByPhase: accuracyByPhase([...facts.values()]),
    timeManagement: timeManagement(games, facts),
    openingsByEval: openingsByEval(games, evals),
    trend: trend([...games].reverse()),
  };
}
