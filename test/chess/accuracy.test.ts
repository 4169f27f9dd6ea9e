import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { fixturePath } from '../helpers/fixtures.js';
import { gameAccuracy, moveAccuracy, winPercentFromCp } from '../../src/chess/accuracy.js';

describe('win% (lichess: 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1), cp clamped to ±1000)', () => {
  test.each([
    [0, 50],
    // 2/(1+e^-0.368208) - 1 = 2/1.691950 - 1 = 0.182056 → 59.1028
    [100, 59.1028],
    [-100, 40.8972],
    // e^-3.68208 = 0.025176 → 2/1.025176 - 1 = 0.950900 → 97.5450
    [1000, 97.545],
    [5000, 97.545],
  ])('%d cp → %f', (cp, win) => {
    expect(winPercentFromCp(cp)).toBeCloseTo(win, 3);
  });
});

describe('move accuracy (103.1668 e^(-0.04354 Δ) - 3.1669, +1 lichess bonus, within [0, 100])', () => {
  test.each([
    [60, 60, 100],
    [50, 70, 100],
    // Δ=10: 103.16681 * e^-0.4354415 = 103.16681 * 0.646979 = 66.7466; -3.16692 + 1 = 64.5797
    [60, 50, 64.5797],
    // Δ=100: 103.16681 * e^-4.354415 = 103.16681 * 0.0128505 = 1.32575; -3.16692 + 1 → -0.84 → 0
    [100, 0, 0],
  ])('%f → %f gives %f', (before, after, acc) => {
    expect(moveAccuracy(before, after)).toBeCloseTo(acc, 3);
  });
});

describe('game accuracy', () => {
  test('all moves keep the evaluation: 100 for both', () => {
    expect(gameAccuracy([{ eval: 15 }, { eval: 15 }, { eval: 15 }, { eval: 15 }])).toEqual({ white: 100, black: 100 });
  });

  test('one White mistake, worked by hand', () => {
    // Positions (White cp): start 15, then 15, 15, -85 (White's 2nd move loses a pawn), -85.
    // win%: 15 → 51.3805 (2/(1+e^-0.0552312) - 1 = 0.0276044); -85 → 42.2392 (0.1552158 below 50 by 7.7608).
    // Window size: 4 moves / 10 → floor 0 → at least 2. Windows: (2-2)=0 padded, then pairs:
    //   [w0,w1] sd 0 → 0.5; [w1,w2] sd 0 → 0.5; [w2,w3] sd |51.3805-42.2392|/2 = 4.5707; [w3,w4] sd 0 → 0.5.
    // White moves: ply 1 (51.38 → 51.38) = 100; ply 3 (51.3805 → 42.2392, Δ 9.1413):
    //   103.16681 * e^(-0.04354415 * 9.1413) = 103.16681 * 0.671627 = 69.2896; -3.16692 + 1 = 67.1227.
    // Weighted: (100*0.5 + 67.1227*4.5707)/(0.5 + 4.5707) = (50 + 306.797)/5.0707 = 70.364
    // Harmonic: 2/(1/100 + 1/67.1227) = 2/(0.01 + 0.0148981) = 80.327
    // White = (70.364 + 80.327)/2 = 75.346. Black never loses win%: 100.
    const acc = gameAccuracy([{ eval: 15 }, { eval: 15 }, { eval: -85 }, { eval: -85 }])!;
    expect(acc.white).toBeCloseTo(75.34, 1);
    expect(acc.black).toBe(100);
  });

  test('a mate score counts as the ±1000 ceiling', () => {
    const withMate = gameAccuracy([{ eval: 15 }, { eval: 15 }, { mate: -3 }, { mate: -2 }])!;
    const withCeiling = gameAccuracy([{ eval: 15 }, { eval: 15 }, { eval: -1000 }, { eval: -1000 }])!;
    expect(withMate).toEqual(withCeiling);
  });

  test('Black to move first swaps who each ply belongs to', () => {
    const evals = [{ eval: 15 }, { eval: 15 }, { eval: -85 }, { eval: -85 }];
    const normal = gameAccuracy(evals)!;
    // With Black first, ply 3's drop in White's win% is Black's gain, and nobody loses.
    expect(gameAccuracy(evals, { startColour: 'black' })).toEqual({ white: 100, black: 100 });
    expect(normal.white).toBeLessThan(100);
  });

  test('entries without a score are skipped, as lichess does', () => {
    expect(gameAccuracy([{ eval: 15 }, {}, { eval: 15 }, { eval: -85 }, { eval: -85 }])).toEqual(
      gameAccuracy([{ eval: 15 }, { eval: 15 }, { eval: -85 }, { eval: -85 }]),
    );
  });

  test('the lichess export fixture: what the method gives for its evaluations', () => {
    const line = readFileSync(fixturePath('sources/lichess/games_user_export.ndjson'), 'utf8')
      .split('\n')
      .find((l) => l.includes('"analysis":['));
    expect(line).toBeDefined();
    const game = JSON.parse(line!);
    const acc = gameAccuracy(game.analysis)!;
    // Black never loses more than 14 cp (win% ≤ 1.3 per move): every move scores 95-100.
    expect(acc.black).toBeGreaterThan(95);
    // White's blunder (ply 11: +30 → -355; win% 52.76 → 20.00, Δ 32.76) is worth 103.167*e^-1.4265 - 2.167 = 22.6%.
    // Window 2 makes that move's weight 12 and the 13 quiet moves' 0.5, so the weighted mean is near
    // (13*0.5*~99 + 12*22.6)/18.5 ≈ 49.4 and the harmonic mean near 14/(13/99 + 1/22.6) ≈ 80: about 65.
    // The fixture's players.*.analysis.accuracy (86 / 98) were not produced by lichess from these
    // evaluations (the method cannot give 86 with a 22.6% move and weight 12), so they are not asserted.
    expect(acc.white).toBeGreaterThan(60);
    expect(acc.white).toBeLessThan(70);
  });
});
