import { describe, expect, test } from 'vitest';
import { DERIVATION_VERSION, deriveReview } from '../../../src/services/review/derive.js';
import { makeAnalysis } from '../../helpers/analysis.js';

/**
 * lichess's published formulas, written out independently of src/chess: win% = 50 + 50 · (2 / (1 +
 * e^(−0.00368208 · cp)) − 1), cp clamped to ±1000, a mate counting as ±1000 (lila WinPercent.scala);
 * move accuracy = 103.1668100711649 · e^(−0.04354415386753951 · win% lost) − 3.166924740191411 + 1,
 * within 0-100, and 100 when nothing is lost (lila AccuracyPercent.scala).
 */
const winPct = (cp: number) => 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * Math.max(-1000, Math.min(1000, cp)))) - 1);
const moveAcc = (before: number, after: number) =>
  after >= before ? 100 : Math.min(100, Math.max(0, 103.1668100711649 * Math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411 + 1));
const r2 = (x: number) => Math.round(x * 100) / 100;

describe('deriveReview: per-ply accuracy and evaluation after the move', () => {
  test("fool's mate, worked by hand", () => {
    // 1. f3 e5 2. g4 Qh4#. Side-to-move scores: start 0; after f3 (Black to move) +50; after e5 (White) −300;
    // after g4 (Black) mate in 1; after Qh4# White is checkmated (terminal, no line).
    const d = deriveReview(makeAnalysis({ sanMoves: ['f3', 'e5', 'g4', 'Qh4#'], evals: [0, 50, -300, { mate: 1 }] }));
    expect(DERIVATION_VERSION).toBe(7);
    expect(d.version).toBe(7);
    expect(d.plies.map((p) => ({ colour: p.colour, accuracy: p.accuracy, evalAfterCp: p.evalAfterCp }))).toEqual([
      // f3: White 50% → Black +50 = White −50.
      { colour: 'white', accuracy: r2(moveAcc(winPct(0), winPct(-50))), evalAfterCp: -50 },
      // e5: Black +50 → Black +300 (gained: 100); White's view −300.
      { colour: 'black', accuracy: 100, evalAfterCp: -300 },
      // g4: White −300 → mated in 1 (−1000 in win% terms); White's view: a mate clamps to −500.
      { colour: 'white', accuracy: r2(moveAcc(winPct(-300), winPct(-1000))), evalAfterCp: -500 },
      // Qh4#: Black mates in 1 → White checkmated: no loss; White's view −500.
      { colour: 'black', accuracy: 100, evalAfterCp: -500 },
    ]);
    // By hand: f3 loses 50 − 45.41 = 4.59 win% → 103.17 · e^(−0.1998) − 2.17 = 82.31;
    // g4 loses 24.89 − 2.46 = 22.43 win% → 103.17 · e^(−0.9768) − 2.17 = 36.68. Stored to two decimals.
    expect(d.plies[0].accuracy).toBe(82.31);
    expect(d.plies[2].accuracy).toBe(36.68);
  });

  test("a full-build review is read on lichess's scale (× 0.84): the same fool's mate, worked by hand", () => {
    const raw = makeAnalysis({ sanMoves: ['f3', 'e5', 'g4', 'Qh4#'], evals: [0, 50, -300, { mate: 1 }] });
    const d = deriveReview({ ...raw, engine: { name: 'Stockfish', version: '19 WASM', build: 'full', network: 'nn-1a298aa575a0.nnue' } });
    // 50 → 42 and −300 → −252 (rounded); the mate stays a mate.
    expect(d.plies.map((p) => p.evalAfterCp)).toEqual([-42, -252, -500, -500]);
    // f3 loses 50 − winPct(−42) win%; g4 goes from winPct(−252) to mated.
    expect(d.plies[0].accuracy).toBe(r2(moveAcc(winPct(0), winPct(-42))));
    expect(d.plies[2].accuracy).toBe(r2(moveAcc(winPct(-252), winPct(-1000))));
    // The stored engine output is not touched.
    expect(raw.positions[1].lines[0].score.cp).toBe(50);
  });

  test('a position without an evaluation: null accuracy on both sides of it, null evaluation after it', () => {
    const d = deriveReview(makeAnalysis({ sanMoves: ['e4', 'e5'], evals: [30, 0, 30], lines: { 1: [] } }));
    expect(d.plies.map((p) => [p.accuracy, p.evalAfterCp])).toEqual([
      [null, null],
      [null, 30],
    ]);
  });
});
