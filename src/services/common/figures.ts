/**
 * Rounding and averaging as the aggregates publish them: one decimal for percentages, two for pawns,
 * three for a rate between 0 and 1 (0.104: the one decimal of its percentage).
 */
export const round1 = (x: number) => Math.round(x * 10) / 10;
export const round2 = (x: number) => Math.round(x * 100) / 100;
export const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Points / games in percent (a draw counting half), one decimal; null with no games. */
export function scorePercent(win: number, draw: number, games: number): number | null {
  return games ? round1((100 * (win + draw / 2)) / games) : null;
}

/** A mean with the count behind it; null with nothing to average. */
export function meanOf(xs: readonly number[], round: (x: number) => number = round1): { count: number; mean: number | null } {
  return { count: xs.length, mean: xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length) : null };
}
