/**
 * Game accuracy exactly as lichess computes it (https://lichess.org/page/accuracy), written from the
 * published method: win% from centipawns, a per-move accuracy from the win% the mover gave away, and per
 * colour the mean of a volatility-weighted mean and a harmonic mean of those move accuracies.
 */
import { winPercentFromCp } from './winChances.js';

export { winPercentFromCp };

/** One entry of lichess's export `analysis` array: the evaluation after a ply, from White's point of view. */
export interface LichessEval {
  eval?: number;
  mate?: number;
  /** The engine's first choice (UCI), present in an export exactly when the game move was not it. */
  best?: string;
}

export interface GameAccuracy {
  white: number;
  black: number;
}

/** lichess clamps centipawns to ±1000 before the win% curve (winChances.ts); a mate counts as the ceiling. */
const CP_CEILING = 1000;
/** The evaluation lichess assumes for the start position (before White's first move). */
const INITIAL_CP = 15;
/** Centipawns standing for an eval entry: a mate is the ceiling with its sign; an entry with neither is null. */
export function evalToCp(e: LichessEval): number | null {
  if (typeof e.eval === 'number') return e.eval;
  // Mate 0 does not occur in lichess exports (a mated position carries no eval); its sign would be 0 here.
  if (typeof e.mate === 'number') return e.mate < 0 ? -CP_CEILING : CP_CEILING;
  return null;
}

/**
 * Accuracy (0-100) of one move from the mover's win% before and after it. The fitted curve is lichess's;
 * the +1 is lichess's allowance for imperfect analysis.
 */
export function moveAccuracy(winBefore: number, winAfter: number): number {
  if (winAfter >= winBefore) return 100;
  const loss = winBefore - winAfter;
  const raw = 103.1668100711649 * Math.exp(-0.04354415386753951 * loss) - 3.166924740191411 + 1;
  return Math.max(0, Math.min(100, raw));
}

function populationStdDev(xs: number[]): number {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length);
}

/**
 * Volatility weights, one per move: the standard deviation of win% over a window of positions around it,
 * kept within [0.5, 12]. The window is a tenth of the game (2 to 8 positions); the first moves reuse the
 * opening window so every move has one.
 */
function volatilityWeights(wins: number[], moves: number): number[] {
  const size = Math.max(2, Math.min(8, Math.floor(moves / 10)));
  const windows: number[][] = [];
  const head = wins.slice(0, size);
  for (let i = 0; i < Math.min(size, wins.length) - 2; i++) windows.push(head);
  if (wins.length <= size) windows.push(wins.slice());
  else for (let i = 0; i + size <= wins.length; i++) windows.push(wins.slice(i, i + size));
  return windows.map((w) => Math.max(0.5, Math.min(12, populationStdDev(w))));
}

/**
 * Both players' accuracy from per-ply evaluations after each move (White's point of view), as in lichess's
 * export `analysis`. Entries without a score are skipped, as lichess does. `startColour` is the side that
 * made the first move (black for a game set up with Black to move).
 * Returns null when a side made no evaluated move (no accuracy to speak of).
 */
export function gameAccuracy(
  evals: readonly LichessEval[],
  opts: { startColour?: 'white' | 'black' } = {},
): GameAccuracy | null {
  const { white, black } = sideAccuracies(evals, opts);
  return white === null || black === null ? null : { white, black };
}

/** As gameAccuracy, but a side that made no evaluated move gets null instead of voiding both. */
export function sideAccuracies(
  evals: readonly LichessEval[],
  opts: { startColour?: 'white' | 'black' } = {},
): { white: number | null; black: number | null } {
  const cps = evals.map(evalToCp).filter((c): c is number => c !== null);
  const wins = [INITIAL_CP, ...cps].map(winPercentFromCp);
  const weights = volatilityWeights(wins, cps.length);
  const whiteFirst = (opts.startColour ?? 'white') === 'white';
  const per: Record<'white' | 'black', Array<{ acc: number; weight: number }>> = { white: [], black: [] };
  const n = Math.min(wins.length - 1, weights.length);
  for (let i = 0; i < n; i++) {
    const colour = (i % 2 === 0) === whiteFirst ? 'white' : 'black';
    const [before, after] = colour === 'white' ? [wins[i], wins[i + 1]] : [wins[i + 1], wins[i]];
    per[colour].push({ acc: moveAccuracy(before, after), weight: weights[i] });
  }
  const side = (moves: Array<{ acc: number; weight: number }>): number | null => {
    if (moves.length === 0) return null;
    const wsum = moves.reduce((a, m) => a + m.weight, 0);
    const weighted = moves.reduce((a, m) => a + m.acc * m.weight, 0) / wsum;
    // lichess floors each term of the harmonic mean at 1 so a 0% move does not zero the whole game.
    const harmonic = moves.length / moves.reduce((a, m) => a + 1 / Math.max(1, m.acc), 0);
    return (weighted + harmonic) / 2;
  };
  return { white: side(per.white), black: side(per.black) };
}
