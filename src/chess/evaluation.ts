import type { EngineScore, StoredPosition } from './engineOutput.js';
import type { Evaluation } from './types.js';
import { winPercentFromCp } from './winChances.js';

/**
 * Evaluation objects and their frames.
 *
 * - Side-to-move frame: what UCI reports and what the analysis stores. After a move the side to
 *   move is the opponent, so the raw score after a move is in the opponent's frame.
 * - Mover frame: the score restated from the point of view of the player who made the move.
 * - Mate scores: `mateIn` N > 0 means the side whose frame it is mates in N moves; N < 0 means it
 *   is mated in |N|; 0 means it is already checkmated (side to move, terminal position). Their
 *   centipawn `value` is a documented large equivalent: ±(MATE_VALUE_CP − |N|), so a faster
 *   mate is worth more and every mate outranks every centipawn score.
 * - Centipawn loss and swings are measured on values clamped to ±CAP_CENTIPAWNS (500).
 */
export const MATE_VALUE_CP = 100_000;
export const CAP_CENTIPAWNS = 500;

export type { Evaluation };

export function cpEval(cp: number): Evaluation {
  return { type: 'cp', value: cp, pawns: cp / 100, mateIn: null };
}

export function mateEval(mateIn: number, winning = mateIn > 0): Evaluation {
  // "mate 0" in the side-to-move frame is a checkmated side: a loss unless stated otherwise.
  const sign = winning ? 1 : -1;
  const value = sign * (MATE_VALUE_CP - Math.abs(mateIn));
  return { type: 'mate', value, pawns: value / 100, mateIn };
}

export function fromEngineScore(score: EngineScore): Evaluation {
  if (score.mate !== null) return mateEval(score.mate);
  return cpEval(score.cp ?? 0);
}

/** The same evaluation seen from the other side. */
export function flip(e: Evaluation): Evaluation {
  if (e.type === 'mate') return mateEval(-(e.mateIn ?? 0) || 0, e.value < 0);
  return cpEval(-e.value || 0);
}

/**
 * The evaluation of a stored position in the side-to-move frame: the engine's first line, or for a
 * terminal position the game-theoretic value (checkmated: mate 0; stalemate or draw: 0 cp).
 * Null when the position was not analysed.
 */
export function positionEval(pos: StoredPosition | undefined): Evaluation | null {
  if (!pos) return null;
  if (pos.terminal === 'checkmate') return mateEval(0);
  if (pos.terminal) return cpEval(0);
  const best = pos.lines[0];
  return best ? fromEngineScore(best.score) : null;
}

export function capCp(value: number): number {
  return Math.max(-CAP_CENTIPAWNS, Math.min(CAP_CENTIPAWNS, value));
}

/**
 * Win probability (0-100) of an evaluation, lichess's model. Mates use lichess's convention of a
 * large centipawn equivalent, which the ±1000 clamp turns into (almost) certainty.
 */
export function winPercent(e: Evaluation): number {
  if (e.type === 'mate') return e.value > 0 ? winPercentFromCp(1000) : winPercentFromCp(-1000);
  return winPercentFromCp(e.value);
}

export interface MoveLoss {
  evalBeforeMover: Evaluation;
  evalAfterMover: Evaluation;
  /** Published loss: clamped evaluations, 0 for the engine's first choice, never negative. */
  centipawnLoss: number;
  /** Signed swing on clamped evaluations, mover frame (positive: the mover lost ground). */
  swingCentipawns: number;
  capApplied: boolean;
  /** True when centipawnLoss equals evalBeforeMover.value − evalAfterMover.value exactly. */
  lossReconciles: boolean;
  /** Win-probability points the mover gave away (may be negative when the move gained). */
  winPercentLoss: number;
}

/**
 * Loss of one move. `before` is the raw score before the move (side to move = mover);
 * `after` is the raw score after it (side to move = opponent).
 */
export function moveLoss(before: Evaluation, after: Evaluation, playedIsBest: boolean): MoveLoss {
  const evalBeforeMover = before;
  const evalAfterMover = flip(after);
  const rawDiff = evalBeforeMover.value - evalAfterMover.value;
  const capApplied = Math.abs(evalBeforeMover.value) > CAP_CENTIPAWNS || Math.abs(evalAfterMover.value) > CAP_CENTIPAWNS;
  const swingCentipawns = Math.round(capCp(evalBeforeMover.value) - capCp(evalAfterMover.value));
  const centipawnLoss = playedIsBest ? 0 : Math.max(0, swingCentipawns);
  return {
    evalBeforeMover,
    evalAfterMover,
    centipawnLoss,
    swingCentipawns,
    capApplied,
    lossReconciles: centipawnLoss === rawDiff,
    winPercentLoss: winPercent(evalBeforeMover) - winPercent(evalAfterMover),
  };
}

/**
 * The conventions in full (spec rules 1-3): stated once, in the output schema's descriptions of
 * conventions.notes (chess-footprint://schema/{tool} over MCP, /openapi.json over HTTP).
 */
export const CONVENTION_RULES = {
  evalFrame:
    'evalBefore/evalAfter are the engine\'s evaluations in the side-to-move frame, its centipawns restated on lichess\'s scale (× the measured factor of its network, 0.84 for the bundled full build; docs/engine.md): after a move the side to move is the opponent, so evalAfter is from the opponent\'s point of view and evalBefore − evalAfter is not the loss. evalBeforeMover/evalAfterMover restate both from the mover\'s point of view. Mate scores have type "mate", mateIn N (positive: the side in the frame mates in N; negative: it is mated in |N|; 0: the game ended in checkmate, value says who won) and value ±(100000 − |N|) centipawns.',
  capCentipawns:
    'centipawnLoss and swings are computed on evaluations clamped to ±500 centipawns; when the clamp applies capApplied is true and the published loss is smaller than the mover-frame difference.',
  lossReconciles:
    'centipawnLoss can differ from evalBeforeMover.value − evalAfterMover.value in four cases: the cap applied; the played move was the engine\'s first choice (loss forced to 0); the raw difference was negative (clamped to 0); either evaluation is a mate score. lossReconciles is true exactly when the published numbers agree, and is the authoritative indicator.',
} as const;

/**
 * The notes every analysis and moments answer carries (the spec keeps conventions.notes): one short
 * sentence each, since every call repeats them (issue 45: 3 KB of the same text on every call);
 * the full rules are in CONVENTION_RULES, which the schema states once.
 */
export const CONVENTION_NOTES = {
  evalFrame:
    "evalBefore/evalAfter are the side to move's (so evalAfter is the opponent's, and evalBefore − evalAfter is not the loss); evalBeforeMover/evalAfterMover are both the mover's. Centipawns on lichess's scale; a mate score has type \"mate\" and mateIn (positive: the side in the frame mates).",
  capCentipawns: 'Losses and swings use evaluations clamped to ±500 centipawns; capApplied marks a loss the clamp made smaller.',
  lossReconciles:
    "true when centipawnLoss is exactly evalBeforeMover.value − evalAfterMover.value; false when the cap applied, the move was the engine's first choice, the difference was negative or a mate score is involved.",
} as const satisfies Record<keyof typeof CONVENTION_RULES, string>;
