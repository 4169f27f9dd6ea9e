/**
 * Lichess's published win-probability model: a logistic curve fitted to lichess games
 * (coefficient 0.00368208, lila PR #11148; scalachess `WinPercent.winningChances`).
 * Mate scores count as a sure win or loss.
 */
const MULTIPLIER = -0.00368208;

/**
 * Winning chances in [-1, 1] on centipawns as given, uncapped: what lichess's move judgments use
 * (lila `modules/tree/src/main/Advice.scala`, CpAdvice).
 */
export function winningChancesUnclamped(cp: number): number {
  return Math.max(-1, Math.min(1, 2 / (1 + Math.exp(MULTIPLIER * cp)) - 1));
}

/** Winning chances in [-1, 1] for the side whose frame `cp` is in, on centipawns capped at ±1000 (win%, accuracy). */
export function winningChances(cp: number): number {
  return winningChancesUnclamped(Math.max(-1000, Math.min(1000, cp)));
}

/** Win probability in percent, 0-100 (lichess `Win%` = 50 + 50 × winning chances). */
export function winPercentFromCp(cp: number): number {
  return 50 + 50 * winningChances(cp);
}
