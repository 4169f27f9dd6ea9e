import { describe, expect, test } from 'vitest';
import { binomialTailAtLeast, normalCdf } from '../../../src/services/stats/significance.js';

// Reference figures: the exact sums Σ_{i≥k} C(n,i)·pⁱ·(1−p)ⁿ⁻ⁱ worked out with Python's math.comb, and the standard
// normal table (Φ(1.644854) = 0.95, Φ(−1.959964) = 0.025).
describe('the one-sided binomial test', () => {
  test('exact for small samples', () => {
    expect(binomialTailAtLeast(1, 9, 12 / 115)).toBeCloseTo(0.629102, 6);
    expect(binomialTailAtLeast(8, 65, 12 / 115)).toBeCloseTo(0.366947, 6);
    expect(binomialTailAtLeast(10, 15, 1 / 3)).toBeCloseTo(0.0085043, 6);
    expect(binomialTailAtLeast(0, 9, 0.1)).toBe(1);
    expect(binomialTailAtLeast(10, 9, 0.1)).toBe(0);
  });
  test('the normal approximation for large samples, close to the exact figure near the 5% level', () => {
    // Exact P(X ≥ 103 | 800, 0.11) = 0.0531; P(X ≥ 107 | 1000, 0.09) = 0.0366 (math.comb sums): within 0.003.
    expect(Math.abs(binomialTailAtLeast(103, 800, 0.11) - 0.0531)).toBeLessThan(0.003);
    expect(Math.abs(binomialTailAtLeast(107, 1000, 0.09) - 0.0366)).toBeLessThan(0.003);
  });
  test('the normal distribution function', () => {
    expect(normalCdf(1.644854)).toBeCloseTo(0.95, 6);
    expect(normalCdf(-1.959964)).toBeCloseTo(0.025, 6);
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
  });
});
