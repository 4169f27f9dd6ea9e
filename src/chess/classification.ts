import type { Move } from 'chess.js';
import type { Classification } from './types.js';
import { PIECE_VALUE, enPrise } from './material.js';
import type { Chess } from 'chess.js';

/**
 * Move classification. All thresholds are in win-probability points (lichess's model, 0-100,
 * src/chess/winChances.ts) measured in the mover's frame; "loss" is win% before the move minus
 * win% after it. Rules are tried top to bottom; the first that holds names the move.
 *
 * | class      | rule                                                                                          |
 * |------------|-----------------------------------------------------------------------------------------------|
 * | book       | the position after the move is a named position of the opening table (src/chess/openings.ts)  |
 * |            | and every earlier move of the game was book too                                               |
 * | miss       | the opponent's previous move lost ≥ 10 (a mistake or worse), this move loses ≥ 10, and the    |
 * |            | mover ends up no worse than before that error (win% ≥ that level − 5): the chance was let go  |
 * | blunder    | loss ≥ 15  (lichess: winning-chances drop ≥ 0.3)                                              |
 * | mistake    | loss ≥ 10  (≥ 0.2)                                                                            |
 * | inaccuracy | loss ≥ 5   (≥ 0.1)                                                                            |
 * | brilliant  | a sound sacrifice that is best or near-best: loss < 2, the moved piece (knight or more) is    |
 * |            | left en prise (capturable by a cheaper piece, or undefended) for less material than it is     |
 * |            | worth, the mover stands ≥ 50 after it, and was not already winning ≥ 97 before it             |
 * | great      | the engine's first choice and the only move that keeps the evaluation: onlyMoveMargin ≥ 10    |
 * |            | (the engine's second choice is at least 10 points worse) and the move was not forced          |
 * | best       | the engine's first choice, or a move conceding 0 centipawns                                    |
 * | good       | anything else (loss < 5)                                                                       |
 */
export const THRESHOLDS = { inaccuracy: 5, mistake: 10, blunder: 15, miss: 10, missSlack: 5, brilliantLoss: 2, great: 10 } as const;

export const CLASSIFICATION_RULES = [
  'Classifications (win% = lichess win probability 0-100 from centipawns, in the mover\'s frame; loss = win% before − win% after; first matching rule wins):',
  'book: the position after the move is a named opening position (lichess opening table) and every earlier move was book;',
  'miss: the opponent\'s previous move lost ≥ 10 win% and this move loses ≥ 10 win% while leaving the mover no worse than before that error (within 5 points): a winning chance let go;',
  'blunder: loss ≥ 15; mistake: loss ≥ 10; inaccuracy: loss ≥ 5 (lichess thresholds on winning chances 0.3/0.2/0.1);',
  'brilliant: a sound sacrifice, best or near-best (loss < 2): the moved piece (knight or more) is left en prise for less than its worth, the mover stays ≥ 50 win% and was not already ≥ 97;',
  'great: the engine\'s first choice when it is the only move that keeps the evaluation (onlyMoveMargin ≥ 10 win% points over the second choice; not a forced move);',
  'best: the engine\'s first choice (or a move conceding 0 centipawns); good: any other move losing < 5.',
].join(' ');

export interface ClassifyInput {
  /** Position after the move is book and all earlier moves were book. */
  book: boolean;
  isBest: boolean;
  centipawnLoss: number;
  winPercentBefore: number;
  winPercentAfter: number;
  /** Win% the opponent lost on the previous ply (their frame), or null for the first ply. */
  previousOpponentLoss: number | null;
  /** The mover's win% before the opponent's previous move, or null. */
  moverWinPercentBeforePrevious: number | null;
  onlyMoveMargin: number;
  forcedMove: boolean;
  sacrifice: boolean;
}

export function classify(m: ClassifyInput): Classification {
  const loss = m.winPercentBefore - m.winPercentAfter;
  if (m.book) return 'book';
  if (
    m.previousOpponentLoss !== null &&
    m.moverWinPercentBeforePrevious !== null &&
    m.previousOpponentLoss >= THRESHOLDS.mistake &&
    loss >= THRESHOLDS.miss &&
    m.winPercentAfter >= m.moverWinPercentBeforePrevious - THRESHOLDS.missSlack
  )
    return 'miss';
  if (loss >= THRESHOLDS.blunder) return 'blunder';
  if (loss >= THRESHOLDS.mistake) return 'mistake';
  if (loss >= THRESHOLDS.inaccuracy) return 'inaccuracy';
  if (m.sacrifice && loss < THRESHOLDS.brilliantLoss && m.winPercentAfter >= 50 && m.winPercentBefore < 97) return 'brilliant';
  if (m.isBest && !m.forcedMove && m.onlyMoveMargin >= THRESHOLDS.great) return 'great';
  if (m.isBest || m.centipawnLoss === 0) return 'best';
  return 'good';
}

/**
 * Whether `move` (already played on `after`) sacrifices the moved piece: a knight or more left en
 * prise on its arrival square, worth more than whatever it captured.
 */
export function isSacrifice(after: Chess, move: Move): boolean {
  if (PIECE_VALUE[move.piece] < 3 || move.piece === 'k') return false;
  const arrived = move.promotion ?? move.piece;
  const captured = move.captured ? PIECE_VALUE[move.captured] : 0;
  if (PIECE_VALUE[arrived] <= captured) return false;
  return enPrise(after, move.to, move.color) !== null;
}
