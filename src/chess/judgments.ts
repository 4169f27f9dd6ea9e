/**
 * lichess's move judgments (Inaccuracy, Mistake, Blunder) and average centipawn loss, from the evaluations of
 * lichess's export `analysis` array (one entry per ply, the position after it, White's point of view).
 *
 * Rules as lichess publishes them (read from the source, written anew here):
 * - lila `modules/tree/src/main/Analysis.scala` (`infoAdvices`): each ply is judged against the entry before it,
 *   the first ply against `Info.start` (scalachess `Eval.Cp.initial`, 15 cp), and only when the ply carries a
 *   variation, i.e. the game move was not the engine's first choice (lila `modules/fishnet/src/main/
 *   AnalysisBuilder.scala`, `makeInfos`: the variation is empty when the engine's first move is the one played;
 *   the same file drops a checkmate evaluation, so a game ending in mate has no entry for the mating ply).
 * - lila `modules/tree/src/main/Advice.scala`: `CpAdvice` first, then `MateAdvice`.
 *   - CpAdvice (both entries centipawns): the mover's drop in winning chances (scalachess `WinPercent.
 *     winningChances`, on the raw, unceiled centipawns) judged Blunder from 0.3, Mistake from 0.2, Inaccuracy from
 *     0.1. (Older lila, modules/analyse/src/main/Advice.scala, capped at ±1000 cp and used a 0.004 multiplier;
 *     judgments stored by it near a threshold can differ.)
 *   - MateAdvice, in the mover's frame: centipawns → being mated is "mate created"; mating → centipawns, or mating →
 *     being mated, is "mate lost". Mate created is an Inaccuracy when the mover stood below −999 cp before, a Mistake
 *     below −700, else a Blunder; mate lost is an Inaccuracy when the mover keeps more than +999 cp, a Mistake above
 *     +700, else a Blunder (mating → being mated counts as 0 cp: a Blunder). A slower mate ("mate delayed") is
 *     never judged.
 * - lila `modules/analyse/src/main/AccuracyCP.scala` (`diffsList`, `mean`): the average centipawn loss.
 */
import type { LichessEval } from './accuracy.js';
import { winningChancesUnclamped } from './winChances.js';

export const JUDGMENTS = ['Inaccuracy', 'Mistake', 'Blunder'] as const;
export type Judgment = (typeof JUDGMENTS)[number];

/** lila Advice.scala `winningChanceJudgements`: drops in winning chances (scale −1..1), most severe first. */
export const WINNING_CHANCE_JUDGMENTS: ReadonlyArray<readonly [number, Judgment]> = [
  [0.3, 'Blunder'],
  [0.2, 'Mistake'],
  [0.1, 'Inaccuracy'],
];
/** scalachess `Eval.Cp.initial`: the evaluation lichess gives the position before the first move. */
export const LICHESS_INITIAL_CP = 15;
/** scalachess `Eval.Cp.CEILING`: centipawns are capped here for the average loss, and a mate counts as it. */
const CP_CEILING = 1000;

type Side = 'white' | 'black';

export interface JudgmentOptions {
  /** The side that made the first ply (black for a game set up with Black to move). Default white. */
  startColour?: Side;
  /** The evaluation before the first ply, White's point of view. Default lichess's `Info.start`: 15 cp. */
  initial?: LichessEval;
  /**
   * Whether ply `index` (0-based) was the engine's first choice; lichess never judges those. Unknown from
   * evaluations alone, so by default every ply is judged. In a lichess export an entry carries `best` exactly
   * when the game move was not the engine's first choice: pass `(i) => analysis[i].best === undefined`.
   */
  isFirstChoice?: (index: number) => boolean;
}

/** A score in one frame: centipawns or a mate distance (positive: this side mates). */
type Score = { cp: number; mate?: undefined } | { mate: number; cp?: undefined };

function scoreOf(e: LichessEval | undefined): Score | null {
  if (!e) return null;
  if (typeof e.eval === 'number') return { cp: e.eval };
  if (typeof e.mate === 'number') return { mate: e.mate };
  return null;
}

function forMover(s: Score, mover: Side): Score {
  if (mover === 'white') return s;
  return s.mate !== undefined ? { mate: -s.mate } : { cp: -s.cp };
}

/**
 * lichess's judgment of one ply from the evaluations before and after it (both White's point of view), or null.
 * Advice.scala: CpAdvice when both are centipawns, else MateAdvice.
 */
export function judgePly(before: LichessEval, after: LichessEval, mover: Side): Judgment | null {
  const prev = scoreOf(before);
  const next = scoreOf(after);
  if (!prev || !next) return null;
  if (prev.cp !== undefined && next.cp !== undefined) {
    const d = winningChancesUnclamped(next.cp) - winningChancesUnclamped(prev.cp);
    const drop = mover === 'white' ? -d : d;
    return WINNING_CHANCE_JUDGMENTS.find(([threshold]) => threshold <= drop)?.[1] ?? null;
  }
  const p = forMover(prev, mover);
  const n = forMover(next, mover);
  // MateSequence: a mate score of 0 is neither positive nor negative, so it starts or ends no sequence.
  if (p.cp !== undefined && n.mate !== undefined && n.mate < 0) {
    if (p.cp < -999) return 'Inaccuracy';
    if (p.cp < -700) return 'Mistake';
    return 'Blunder';
  }
  if (p.mate !== undefined && p.mate > 0 && (n.cp !== undefined || (n.mate as number) < 0)) {
    const keptCp = n.cp ?? 0;
    if (keptCp > 999) return 'Inaccuracy';
    if (keptCp > 700) return 'Mistake';
    return 'Blunder';
  }
  return null;
}

function moverOf(index: number, startColour: Side): Side {
  const first = index % 2 === 0;
  return first === (startColour === 'white') ? 'white' : 'black';
}

/**
 * lichess's judgment of every ply of an export `analysis` array: one entry per ply, `'Inaccuracy' | 'Mistake' |
 * 'Blunder' | null`. Entries without a score (and the ply after one) are not judged, as lichess does.
 */
export function gameJudgments(analysis: readonly LichessEval[], opts: JudgmentOptions = {}): Array<Judgment | null> {
  const startColour = opts.startColour ?? 'white';
  const initial = opts.initial ?? { eval: LICHESS_INITIAL_CP };
  return analysis.map((after, i) => {
    if (opts.isFirstChoice?.(i)) return null;
    const before = i === 0 ? initial : analysis[i - 1];
    return judgePly(before, after, moverOf(i, startColour));
  });
}

/** Centipawns for the average loss (scalachess `Eval.forceAsCp` then `ceiled`): a mate is the ±1000 ceiling. */
function cappedCp(e: LichessEval | undefined): number | null {
  const s = scoreOf(e);
  if (!s) return null;
  if (s.mate !== undefined) return s.mate < 0 ? -CP_CEILING : CP_CEILING;
  return Math.max(-CP_CEILING, Math.min(CP_CEILING, s.cp));
}

/**
 * Average centipawn loss per side exactly as lichess publishes it (`players.*.analysis.acpl`): per move, the
 * mover's drop on evaluations capped at ±1000 (a mate counts as the cap), never below 0, a move is skipped when
 * either evaluation is missing; the mean rounded to an integer. The starting side's first move is measured from
 * lichess's 15 cp. Null for a side with no measured move (lichess omits the field).
 */
export function gameAcpl(analysis: readonly LichessEval[], opts: Pick<JudgmentOptions, 'startColour'> = {}): { white: number | null; black: number | null } {
  const startColour = opts.startColour ?? 'white';
  const evals: LichessEval[] = [{ eval: LICHESS_INITIAL_CP }, ...analysis];
  const losses: Record<Side, number[]> = { white: [], black: [] };
  for (let i = 0; i + 1 < evals.length; i++) {
    const side = moverOf(i, startColour);
    const before = cappedCp(evals[i]);
    const after = cappedCp(evals[i + 1]);
    if (before === null || after === null) continue;
    const drop = side === 'white' ? before - after : after - before;
    losses[side].push(Math.max(0, drop));
  }
  const mean = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : null);
  return { white: mean(losses.white), black: mean(losses.black) };
}
