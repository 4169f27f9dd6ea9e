/**
 * Lichess's published win-probability model: a logistic curve fitted to lichess games
 * (coefficient 0.00368208, evaluations clamped to ±1000 cp). Mate scores count as a sure win or loss.
 */
const MULTIPLIER = -0.00368208;

/** Winning chances in [-1, 1] for the side whose frame `cp` is in. */
export function winningChances(cp: number): number {
  const c = Math.max(-1000, Math.min(1000, cp));
  return 2 / (1 + Math.exp(MULTIPLIER * c)) - 1;
}

/** Win probability in percent, 0-100 (lichess `Win%` = 50 + 50 × winning chances). */
export function winPercentFromCp(cp: number): number {
  return 50 + 50 * winningChances(cp);
}
