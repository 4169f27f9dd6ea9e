import { describe, expect, test } from 'vitest';
import { timeTicks, valueTicks } from '../../web/ticks.js';

// Worked by hand: the uneven axis (1380 … 1890) becomes steps of 100.
describe('chart ticks', () => {
  test('rating ticks are round steps covering the values', () => {
    expect(valueTicks(1380, 1890)).toEqual([1300, 1400, 1500, 1600, 1700, 1800, 1900]);
    expect(valueTicks(1480, 1540)).toEqual([1475, 1500, 1525, 1550]);
    expect(valueTicks(1500, 1500)).toEqual([1475, 1500, 1525]);
    expect(valueTicks(900, 2400)).toEqual([500, 1000, 1500, 2000, 2500]);
  });

  test('date ticks fall on month starts, or Mondays in a range under two months', () => {
    const year = timeTicks(Date.UTC(2025, 10, 21), Date.UTC(2026, 10, 21));
    expect(year.map((t) => new Date(t.t).toISOString().slice(0, 10))).toEqual(['2026-01-01', '2026-03-01', '2026-05-01', '2026-07-01', '2026-09-01', '2026-11-01']);
    expect(year.map((t) => t.label)).toEqual(['2026', 'Mar', 'May', 'Jul', 'Sep', 'Nov']);
    // 2026-10-22 (Thu) to 2026-11-21 (Sat): one month start, so the Mondays 26 Oct, 2, 9 and 16 Nov.
    const month = timeTicks(Date.UTC(2026, 9, 22), Date.UTC(2026, 10, 21));
    expect(month.map((t) => t.label)).toEqual(['26 Oct', '2 Nov', '9 Nov', '16 Nov']);
  });
});
