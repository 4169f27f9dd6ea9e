import type { EngineScore, StoredAnalysis, StoredPosition } from './engineOutput.js';
import { sideAccuracies, type GameAccuracy, type LichessEval } from './accuracy.js';
import { sideToMove } from './positions.js';

/** The score of a stored position from the side to move: the best line's, or the terminal outcome. */
export function positionScore(p: StoredPosition): EngineScore | null {
  if (p.lines.length > 0) return p.lines[0].score;
  if (p.terminal === 'checkmate') return { cp: null, mate: 0 };
  if (p.terminal) return { cp: 0, mate: null };
  return null;
}

/**
 * The review's evaluations in lichess's export frame: one entry per ply, the position after it, White's
 * point of view. A checkmate counts as the ±1000 cp ceiling for the side that delivered it.
 */
export function analysisEvals(a: StoredAnalysis): LichessEval[] {
  return a.positions.slice(1).map((p) => {
    const s = positionScore(p);
    const sign = sideToMove(p.fen) === 'white' ? 1 : -1;
    if (!s) return {};
    if (s.mate === 0) return { eval: -1000 * sign }; // the side to move is mated
    if (s.mate !== null) return { mate: s.mate * sign };
    return { eval: (s.cp ?? 0) * sign };
  });
}

/** Both players' accuracy for a stored review, by lichess's method (src/chess/accuracy.ts). */
export function analysisAccuracy(a: StoredAnalysis): GameAccuracy {
  const acc = sideAccuracies(analysisEvals(a), { startColour: sideToMove(a.startFen) });
  // A one-ply game leaves a side without moves: it lost no win%, which the method scores 100.
  return { white: acc.white ?? 100, black: acc.black ?? 100 };
}
