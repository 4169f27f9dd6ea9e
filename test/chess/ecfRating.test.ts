import { describe, expect, test } from 'vitest';
import { ecfRatingChange, expectedScore, ratingDifference } from '../../src/chess/ecfRating.js';

// Every figure below is worked by hand from the ECF rules cited in src/chess/ecfRating.ts:
// change = K·(W − We); We from FIDE table 8.1(b) after limiting D = opponent − player to ±400;
// K = 20, or 40 for a junior whose month is a gain; K ≤ 700 / games in the month.

describe('FIDE table 8.1(b) as the ECF uses it', () => {
  test('row edges: |D| 0–3 is 0.50, 4–10 is 0.51/0.49', () => {
    expect(expectedScore(3)).toBe(0.5);
    expect(expectedScore(-3)).toBe(0.5);
    expect(expectedScore(4)).toBe(0.49); // opponent 4 above: lower rated, 1 − 0.51
    expect(expectedScore(-4)).toBe(0.51);
    expect(expectedScore(10)).toBe(0.49);
    expect(expectedScore(11)).toBe(0.48); // 11–17 row: 0.52 for the higher
  });

  test('difference limit: 391 is 0.91/0.09, 392 to 400 is 0.92/0.08, beyond 400 counts as 400', () => {
    expect(expectedScore(ratingDifference(1500, 1891))).toBe(0.09); // D = 391
    expect(expectedScore(ratingDifference(1500, 1892))).toBe(0.08); // D = 392
    expect(ratingDifference(1500, 2100)).toBe(400); // D = 600 → 400
    expect(ratingDifference(2100, 1500)).toBe(-400);
    expect(expectedScore(ratingDifference(1500, 2100))).toBe(0.08);
    expect(expectedScore(ratingDifference(2100, 1500))).toBe(0.92);
  });
});

describe('ecfRatingChange', () => {
  test('adult, level opponent, win: 20 × (1 − 0.50) = +10', () => {
    const r = ecfRatingChange({ currentRating: 1800, games: [{ opponentRating: 1800, result: 'win' }], gamesInMonth: 1 });
    expect(r.k).toBe(20);
    expect(r.change).toBe(10);
    expect(r.newRating).toBe(1810);
    expect(r.monthlyCapApplied).toBe(false);
    expect(r.kMax).toBe(700);
  });

  test('three games: We = 0.43 + 0.57 + 0.30 = 1.30, W = 1.5, change = 20 × 0.20 = +4', () => {
    // 1650 v 1700 (D = 50, row 47–53: 0.57 higher → 0.43), v 1600 (D = −50 → 0.57), v 1800 (D = 150, row 146–153: 0.70 → 0.30).
    const r = ecfRatingChange({
      currentRating: 1650,
      games: [
        { opponentRating: 1700, result: 'draw' },
        { opponentRating: 1600, result: 'win' },
        { opponentRating: 1800, result: 'loss' },
      ],
      gamesInMonth: 3,
    });
    expect(r.games.map((g) => g.expectedScore)).toEqual([0.43, 0.57, 0.3]);
    expect(r.games.map((g) => g.difference)).toEqual([50, -50, 150]);
    expect(r.expectedScore).toBe(1.3);
    expect(r.score).toBe(1.5);
    // Contributions 20 × 0.07 = 1.4, 20 × 0.43 = 8.6, 20 × −0.30 = −6; they sum to the change.
    expect(r.games.map((g) => g.contribution)).toEqual([1.4, 8.6, -6]);
    expect(r.change).toBe(4);
    expect(r.newRating).toBe(1654);
  });

  test('difference cap: losing to someone 600 above costs 20 × 0.08 = 1.6, not the uncapped figure', () => {
    const r = ecfRatingChange({ currentRating: 1500, games: [{ opponentRating: 2100, result: 'loss' }], gamesInMonth: 1 });
    expect(r.games[0].difference).toBe(400);
    expect(r.change).toBe(-1.6);
    expect(r.newRating).toBe(1498); // 1498.4 rounds to 1498
  });

  test('monthly cap: 35 games leave K at 20 (700/35 = 20); 36 games lower it to 700/36', () => {
    const game = [{ opponentRating: 1800, result: 'win' as const }];
    const at35 = ecfRatingChange({ currentRating: 1800, games: game, gamesInMonth: 35 });
    expect(at35.kMax).toBe(20);
    expect(at35.k).toBe(20);
    expect(at35.monthlyCapApplied).toBe(false);
    const at36 = ecfRatingChange({ currentRating: 1800, games: game, gamesInMonth: 36 });
    expect(at36.monthlyCapApplied).toBe(true);
    expect(at36.k).toBeCloseTo(19.4444444, 6); // 700 / 36
    expect(at36.change).toBeCloseTo(9.7222222, 6); // 19.444… × 0.5
    expect(at36.newRating).toBe(1810); // 1809.72 rounds up
  });

  test('junior gaining moves at K = 40: +20; junior losing stays at K = 20: −10; 18 is adult', () => {
    const win = [{ opponentRating: 1800, result: 'win' as const }];
    const loss = [{ opponentRating: 1800, result: 'loss' as const }];
    const gain = ecfRatingChange({ currentRating: 1800, games: win, age: 15, gamesInMonth: 1 });
    expect([gain.k, gain.change, gain.newRating, gain.isJunior]).toEqual([40, 20, 1820, true]);
    const lose = ecfRatingChange({ currentRating: 1800, games: loss, age: 15, gamesInMonth: 1 });
    expect([lose.k, lose.change, lose.newRating]).toEqual([20, -10, 1790]);
    const adult = ecfRatingChange({ currentRating: 1800, games: win, age: 18, gamesInMonth: 1 });
    expect([adult.k, adult.change, adult.isJunior]).toEqual([20, 10, false]);
  });

  test('junior and the monthly cap: 17 games keep K = 40 (700/17 ≈ 41.2); 18 games cap it at 700/18 ≈ 38.9', () => {
    const win = [{ opponentRating: 1800, result: 'win' as const }];
    const at17 = ecfRatingChange({ currentRating: 1800, games: win, age: 12, gamesInMonth: 17 });
    expect([at17.k, at17.monthlyCapApplied]).toEqual([40, false]);
    const at18 = ecfRatingChange({ currentRating: 1800, games: win, age: 12, gamesInMonth: 18 });
    expect(at18.monthlyCapApplied).toBe(true);
    expect(at18.k).toBeCloseTo(38.8888889, 6);
    // An adult with 18 games is not capped: 700/18 > 20.
    const adult = ecfRatingChange({ currentRating: 1800, games: win, gamesInMonth: 18 });
    expect([adult.k, adult.monthlyCapApplied]).toEqual([20, false]);
  });

  test('a month that is level (W = We) is not a gain: a junior keeps K = 20 and the change is 0', () => {
    const r = ecfRatingChange({ currentRating: 1800, games: [{ opponentRating: 1800, result: 'draw' }], age: 10, gamesInMonth: 1 });
    expect([r.k, r.change, r.newRating]).toEqual([20, 0, 1800]);
  });
});
