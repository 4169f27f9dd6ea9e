import type { Chess } from 'chess.js';
import { viewBoard } from './replay.js';
import { PHASES, type Phase } from './types.js';

export { PHASES, type Phase };

export const PHASE_METHOD = 'divider-v1';

/**
 * divider-v1: a material and development divider in the spirit of lichess's Divider.
 * For a position, count the major and minor pieces on the board (queens, rooks, bishops, knights,
 * both sides) and each side's own pieces still on its back rank:
 *   - endgame: at most 6 majors and minors remain;
 *   - middlegame: at most 10 majors and minors remain, or either side has fewer than 4 of its own
 *     pieces left on its back rank (the pieces have come out);
 *   - opening: otherwise.
 * Over a game the phase never goes back: a ply's phase is the latest phase reached by the
 * position before it (so a middlegame that re-fills a back rank stays a middlegame).
 */
export const PHASE_RULE =
  'divider-v1: endgame when at most 6 queens+rooks+bishops+knights remain (both sides); middlegame when at most 10 remain or either side has fewer than 4 of its own pieces on its back rank; otherwise opening. Phases only move forward through a game; a ply takes the phase of the position before it.';

export function positionPhase(board: Chess): Phase {
  let majorsMinors = 0;
  let whiteBack = 0;
  let blackBack = 0;
  const rows = board.board();
  rows.forEach((row, r) => {
    for (const sq of row) {
      if (!sq) continue;
      if (sq.type !== 'p' && sq.type !== 'k') majorsMinors += 1;
      // board()[0] is rank 8, board()[7] is rank 1.
      if (r === 7 && sq.color === 'w') whiteBack += 1;
      if (r === 0 && sq.color === 'b') blackBack += 1;
    }
  });
  if (majorsMinors <= 6) return 'endgame';
  if (majorsMinors <= 10 || whiteBack < 4 || blackBack < 4) return 'middlegame';
  return 'opening';
}

/** Phase of each position of a game (index i = position before ply i+1), monotone; null where the FEN is unusable. */
export function gamePhases(fens: readonly string[]): Array<Phase | null> {
  let reached = 0;
  return fens.map((fen) => {
    const board = viewBoard(fen);
    if (!board) return null;
    reached = Math.max(reached, PHASES.indexOf(positionPhase(board)));
    return PHASES[reached];
  });
}
