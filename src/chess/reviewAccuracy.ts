import type { EngineScore, StoredAnalysis, StoredPosition } from './engineOutput.js';
import { sideAccuracies, type GameAccuracy, type LichessEval } from './accuracy.js';
import { gameJudgments, type Judgment } from './judgments.js';
import { sideToMove } from './positions.js';

/** The score of a stored position from the side to move: the best line's, or the terminal outcome. */
export function positionScore(p: StoredPosition): EngineScore | null {
  if (p.lines.length > 0) return p.lines[0].score;
  if (p.terminal === 'checkmate') return { cp: null, mate: 0 };
  if (p.terminal) return { cp: 0, mate: null };
  return null;
}

/** One stored position's evaluation in lichess's export frame (White's point of view); {} when not analysed. */
function whiteFrame(p: StoredPosition): LichessEval {
  const s = positionScore(p);
  if (!s) return {};
  const sign = sideToMove(p.fen) === 'white' ? 1 : -1;
  if (s.mate !== null) return { mate: s.mate * sign };
  return { eval: (s.cp ?? 0) * sign };
}

/**
 * The review's evaluations in lichess's export frame: one entry per ply, the position after it, White's point of
 * view. A final checkmate has no entry, as in lichess's analysis (lila fishnet AnalysisBuilder.scala drops a
 * checkmate evaluation): the list is one shorter than the moves of a game ending in mate.
 */
export function analysisEvals(a: StoredAnalysis): LichessEval[] {
  const after = a.positions.slice(1);
  const last = after[after.length - 1];
  const kept = last?.terminal === 'checkmate' ? after.slice(0, -1) : after;
  return kept.map(whiteFrame);
}

/**
 * lichess's judgment of every ply of a stored review (src/chess/judgments.ts), on the review's own evaluations:
 * `isFirstChoice(i)` says the game move was the engine's first choice (never judged). The first ply is measured
 * from the review's own evaluation of the start position where it has one; lichess, which keeps none, uses 15 cp.
 * A game ending in mate has no judgment for the mating ply, as on lichess.
 */
export function analysisJudgments(a: StoredAnalysis, isFirstChoice: (index: number) => boolean): Array<Judgment | null> {
  const start = a.positions[0] ? whiteFrame(a.positions[0]) : {};
  const judged = gameJudgments(analysisEvals(a), {
    startColour: sideToMove(a.startFen),
    initial: start.eval !== undefined || start.mate !== undefined ? start : undefined,
    isFirstChoice,
  });
  return a.movesUci.map((_, i) => judged[i] ?? null);
}

/**
 * Both players' accuracy for a stored review: lichess's method (src/chess/accuracy.ts gameAccuracy) over the
 * review's own evaluations, the final mated position dropped as lichess drops it.
 */
export function analysisAccuracy(a: StoredAnalysis): GameAccuracy {
  const acc = sideAccuracies(analysisEvals(a), { startColour: sideToMove(a.startFen) });
  // A one-ply game leaves a side without moves: it lost no win%, which the method scores 100.
  return { white: acc.white ?? 100, black: acc.black ?? 100 };
}
