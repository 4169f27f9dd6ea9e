import type { Chess, Move, PieceSymbol, Square } from 'chess.js';
import type { Judgment } from './judgments.js';
import type { Classification } from './types.js';
import { PIECE_VALUE, enPrise } from './material.js';
import { winPercentFromCp } from './winChances.js';

/**
 * Move classification. Inaccuracy, mistake and blunder are lichess's judgments of the move, computed from the
 * review's own evaluations by the same code that judges a lichess export (src/chess/judgments.ts): win-chance drops
 * of 0.1 / 0.2 / 0.3, lichess's mate created / mate lost bands, and never the engine's first choice. Everything else
 * is in win-probability points (lichess's model, 0-100, src/chess/winChances.ts) in the mover's frame; "loss" is
 * win% before the move minus win% after it. Rules are tried top to bottom; the first that holds names the move.
 *
 * | class      | rule                                                                                          |
 * |------------|-----------------------------------------------------------------------------------------------|
 * | miss       | the move is judged a Mistake or Blunder, the opponent's previous move was judged a Mistake or |
 * |            | Blunder, it left the mover a winning chance (win% ≥ 63.5, +1.50 pawns) and the move lets it   |
 * |            | go without falling more than 5 points below where the mover stood before that error           |
 * | blunder    | judged Blunder (a winning-chance drop ≥ 0.3, i.e. ≥ 15 win%, or lichess's mate bands)         |
 * | mistake    | judged Mistake (≥ 0.2, i.e. ≥ 10 win%)                                                         |
 * | inaccuracy | judged Inaccuracy (≥ 0.1, i.e. ≥ 5 win%)                                                       |
 * | book       | the position after the move is a named position of the opening table (src/chess/openings.ts)  |
 * |            | and every earlier move of the game was book too                                               |
 * | brilliant  | a sound sacrifice that is best or near-best: loss < 2, a piece of the mover (knight or more,  |
 * |            | any piece, not only the one moved) is left en prise for more than the move captured, the      |
 * |            | mover stands ≥ 50 after it, and the position was not decided before it                        |
 * | great      | the engine's first choice and the only move that keeps the evaluation: onlyMoveMargin ≥ 10    |
 * |            | win% points over the second choice, measured on the deeper look's search of the position      |
 * |            | (issue 25: a lead of just over 10 at 100,000 nodes often shrank deeper); not the only legal   |
 * |            | move, not a recapture on the square the opponent just captured on, not a king move out of      |
 * |            | check, not in a decided position                                                               |
 * | best       | the engine's first choice, or a move conceding nothing on the unclamped evaluation            |
 * | good       | anything else (a move lichess would not judge)                                                 |
 *
 * Decided: the mover's win% before the move is ≥ 90 or ≤ 10 (winning chances ±0.8 on lichess's curve, ±5.97 pawns,
 * or a mate). Where lichess's own scale says a game is won or lost: its judgments stop calling a slip a blunder near
 * there (Advice.scala: a forced mate let go while keeping +7.00 is only a Mistake, allowed from −7.00 or worse only a
 * Mistake), and every further 100 cp moves the curve by under 4 points, so one move cannot stand out by 10.
 */
export const THRESHOLDS = {
  /** A winning chance for `miss`: the mover's win% after the opponent's error, +1.50 pawns on lichess's curve. */
  missChance: winPercentFromCp(150),
  /** How far below their pre-error standing the mover may end and the move still be a chance let go. */
  missSlack: 5,
  brilliantLoss: 2,
  great: 10,
  /** Win% from which (and 100 minus which) a position counts as decided. */
  decided: 90,
} as const;

export const CLASSIFICATION_RULES = [
  'Classifications (win% = lichess win probability 0-100 from centipawns, in the mover\'s frame; loss = win% before − win% after; first matching rule wins):',
  'inaccuracy / mistake / blunder are lichess\'s own judgments computed on this review\'s evaluations (lila Advice.scala): a drop in winning chances of ≥ 0.1 / 0.2 / 0.3 (5 / 10 / 15 win%) on uncapped centipawns; allowing a forced mate is a blunder from −7.00 or better, a mistake from below −7.00, an inaccuracy from below −9.99; losing a forced mate is a blunder unless +7.01 or more is kept (mistake) or +10.00 (inaccuracy); a slower mate is not judged; the engine\'s first choice is never judged;',
  'miss: a move judged mistake or blunder right after the opponent\'s move was judged mistake or blunder, when that error had given the mover a winning chance (win% ≥ 63.5, +1.50 pawns) and the move lets it go while leaving the mover no more than 5 win% below where they stood before the error;',
  'book: the position after the move is a named opening position (lichess opening table) and every earlier move was book;',
  'brilliant: a sound sacrifice, best or near-best (loss < 2): some piece of the mover (knight or more, not only the one moved) is left en prise for more than the move captured, the mover stays ≥ 50 win% and the position was not decided;',
  'great: the engine\'s first choice when it is the only move that keeps the evaluation (≥ 10 win% points over the second choice on the deeper look\'s search of the position: never on a first-pass search alone), except the only legal move, a recapture on the square the opponent just captured on, a king move out of check, and decided positions (win% ≥ 90 or ≤ 10, about ±6 pawns, or a forced mate);',
  'best: the engine\'s first choice, or a move conceding nothing on the unclamped evaluation; good: any other move (one lichess would not judge).',
].join(' ');

export interface ClassifyInput {
  /** Position after the move is book and all earlier moves were book. */
  book: boolean;
  isBest: boolean;
  /** lichess's judgment of this move from the review's evaluations (src/chess/judgments.ts). */
  judgment: Judgment | null;
  /** lichess's judgment of the opponent's previous move, or null (first ply, or not judged). */
  previousJudgment: Judgment | null;
  /**
   * Centipawns conceded on unclamped mover-frame evaluations (a mate as ±(100000 − N), src/chess/evaluation.ts);
   * ≤ 0 concedes nothing; null when unknown.
   */
  rawLoss: number | null;
  winPercentBefore: number;
  winPercentAfter: number;
  /** The mover's win% before the opponent's previous move, or null. */
  moverWinPercentBeforePrevious: number | null;
  onlyMoveMargin: number;
  /** The position before the move was searched again at the deeper budget (StoredPosition.deeper): `great` needs it. */
  deeperSearched: boolean;
  forcedMove: boolean;
  /** The mover was in check and moved the king. */
  kingMoveOutOfCheck: boolean;
  /** The move captures on the square the opponent's previous move captured on. */
  recapture: boolean;
  sacrifice: boolean;
}

const SERIOUS: ReadonlySet<Judgment> = new Set(['Mistake', 'Blunder']);
const NAME: Record<Judgment, Classification> = { Inaccuracy: 'inaccuracy', Mistake: 'mistake', Blunder: 'blunder' };

export function isDecided(winPercent: number): boolean {
  return winPercent >= THRESHOLDS.decided || winPercent <= 100 - THRESHOLDS.decided;
}

export function classify(m: ClassifyInput): Classification {
  const loss = m.winPercentBefore - m.winPercentAfter;
  // lichess never judges its engine's first choice (lila AnalysisBuilder.scala: no variation, no advice).
  const judgment = m.isBest ? null : m.judgment;
  if (judgment) {
    const chanceLetGo =
      SERIOUS.has(judgment) &&
      m.previousJudgment !== null &&
      SERIOUS.has(m.previousJudgment) &&
      m.winPercentBefore >= THRESHOLDS.missChance &&
      m.moverWinPercentBeforePrevious !== null &&
      m.winPercentAfter >= m.moverWinPercentBeforePrevious - THRESHOLDS.missSlack;
    return chanceLetGo ? 'miss' : NAME[judgment];
  }
  if (m.book) return 'book';
  const decided = isDecided(m.winPercentBefore);
  if (m.sacrifice && loss < THRESHOLDS.brilliantLoss && m.winPercentAfter >= 50 && !decided) return 'brilliant';
  if (m.isBest && m.deeperSearched && !m.forcedMove && !m.kingMoveOutOfCheck && !m.recapture && !decided && m.onlyMoveMargin >= THRESHOLDS.great) return 'great';
  if (m.isBest || (m.rawLoss !== null && m.rawLoss <= 0)) return 'best';
  return 'good';
}

/**
 * The pieces `move` (already played on `after`) leaves en prise: every piece of the mover, knight or more, that the
 * opponent can win (src/chess/material.ts enPrise) and that is worth more than what the move captured. Not only the
 * moved piece: 17…Be6!! (Byrne–Fischer, 1956) leaves the queen on b6 to Bxb6.
 */
export function sacrificedPieces(after: Chess, move: Move): Array<{ square: Square; piece: PieceSymbol }> {
  const captured = move.captured ? PIECE_VALUE[move.captured] : 0;
  const out: Array<{ square: Square; piece: PieceSymbol }> = [];
  for (const row of after.board()) {
    for (const sq of row) {
      if (!sq || sq.color !== move.color || PIECE_VALUE[sq.type] < 3 || PIECE_VALUE[sq.type] <= captured) continue;
      if (enPrise(after, sq.square, move.color)) out.push({ square: sq.square, piece: sq.type });
    }
  }
  return out;
}

/** Whether `move` sacrifices material: it leaves some piece en prise (see sacrificedPieces). */
export function isSacrifice(after: Chess, move: Move): boolean {
  return sacrificedPieces(after, move).length > 0;
}
