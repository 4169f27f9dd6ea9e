/**
 * Whether a group's count of errors stands out from a player's usual rate, or is what chance alone gives.
 *
 * The one-sided binomial test (NIST/SEMATECH e-Handbook of Statistical Methods, §7.2.4 "Does the proportion of
 * defectives meet requirements?"): under the usual rate p, the chance of k or more errors in n moves is
 * P(X ≥ k) = Σ_{i≥k} C(n,i)·pⁱ·(1−p)ⁿ⁻ⁱ. Summed exactly while n·p·(1−p) < 9; beyond that (where the exact terms would
 * underflow for thousands of moves) by the normal approximation with continuity correction, which the same handbook
 * (§7.2.4.1) accepts once n·p and n·(1−p) are large.
 */
export function binomialTailAtLeast(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const variance = n * p * (1 - p);
  if (variance >= 9) return 1 - normalCdf((k - 0.5 - n * p) / Math.sqrt(variance));
  // pmf(i+1) = pmf(i)·(n−i)/(i+1)·p/(1−p), from pmf(0) = (1−p)ⁿ.
  let pmf = (1 - p) ** n;
  let below = 0;
  for (let i = 0; i < k; i += 1) {
    below += pmf;
    pmf *= ((n - i) / (i + 1)) * (p / (1 - p));
  }
  return Math.max(0, 1 - below);
}

/** The standard normal distribution function, by Abramowitz & Stegun 7.1.26 for erf (absolute error under 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
