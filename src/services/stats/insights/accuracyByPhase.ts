import type { z } from 'zod';
import type { AccuracyByPhase } from '../../../../schemas/insights.js';
import { PHASES, type Phase } from '../../../chess/phase.js';
import type { OwnerMoveFact } from '../../review/index.js';
import { round1 } from '../../common/index.js';


/** Accuracy and errors of the owner's moves by phase, over the reviewed games' move facts. */
export function accuracyByPhase(reviewed: ReadonlyArray<readonly OwnerMoveFact[]>): z.infer<typeof AccuracyByPhase> {
  const acc = Object.fromEntries(PHASES.map((p) => [p, { games: 0, moves: 0, accuracySum: 0, accuracyMoves: 0, errors: 0 }])) as Record<
    Phase,
    { games: number; moves: number; accuracySum: number; accuracyMoves: number; errors: number }
  >;
  for (const moves of reviewed) {
    const seen = new Set<Phase>();
    for (const m of moves) {
      if (!m.phase) continue;
      const a = acc[m.phase];
      a.moves += 1;
      if (m.accuracy !== null) {
        a.accuracySum += m.accuracy;
        a.accuracyMoves += 1;
      }
      if (m.error) a.errors += 1;
      seen.add(m.phase);
    }
    for (const p of seen) acc[p].games += 1;
  }
  const figures = (p: Phase) => {
    const a = acc[p];
    return {
      games: a.games,
      moves: a.moves,
      averageAccuracy: a.accuracyMoves ? round1(a.accuracySum / a.accuracyMoves) : null,
      errorsPer100Moves: a.moves ? round1((100 * a.errors) / a.moves) : null,
    };
  };
  return { reviewedGames: reviewed.length, opening: figures('opening'), middlegame: figures('middlegame'), endgame: figures('endgame') };
}
