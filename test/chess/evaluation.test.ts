import { describe, expect, test } from 'vitest';
import { cpEval, flip, mateEval, moveLoss, positionEval, winPercent } from '../../src/chess/evaluation.js';
import { winPercentFromCp } from '../../src/chess/winChances.js';

describe('evaluation frames', () => {
  test('cp and mate evaluation objects', () => {
    expect(cpEval(135)).toEqual({ type: 'cp', value: 135, pawns: 1.35, mateIn: null });
    // mate in 3 for the side in the frame: value 100000 − 3.
    expect(mateEval(3)).toEqual({ type: 'mate', value: 99997, pawns: 999.97, mateIn: 3 });
    expect(mateEval(-2)).toEqual({ type: 'mate', value: -99998, pawns: -999.98, mateIn: -2 });
  });

  test('flipping restates the other side: +1.35 ↔ −1.35, mate 3 ↔ mated in 3', () => {
    expect(flip(cpEval(135))).toEqual(cpEval(-135));
    expect(flip(mateEval(3))).toEqual(mateEval(-3));
    expect(flip(flip(mateEval(-5)))).toEqual(mateEval(-5));
  });

  test('a checkmated side to move is mate 0 and a loss; flipped it is a win, still mateIn 0', () => {
    const mated = positionEval({ index: 7, fen: 'x', lines: [], terminal: 'checkmate', depth: 0, nodes: 0 });
    expect(mated).toEqual({ type: 'mate', value: -100000, pawns: -1000, mateIn: 0 });
    expect(flip(mated!)).toEqual({ type: 'mate', value: 100000, pawns: 1000, mateIn: 0 });
    expect(positionEval({ index: 7, fen: 'x', lines: [], terminal: 'stalemate', depth: 0, nodes: 0 })).toEqual(cpEval(0));
    expect(positionEval({ index: 7, fen: 'x', lines: [], terminal: null, depth: 0, nodes: 0 })).toBeNull();
  });
});

describe('lichess win probability', () => {
  test.each([
    // 50 + 50 × (2 / (1 + e^(−0.00368208 × cp)) − 1)
    [0, 50],
    [100, 59.1], // e^−0.368208 = 0.69193; 2/1.69193 − 1 = 0.18208 → 59.10
    [-200, 32.38], // e^0.736416 = 2.08843; 2/3.08843 − 1 = −0.35242 → 32.38
    [400, 81.35], // e^−1.472832 = 0.22927; 2/1.22927 − 1 = 0.62698 → 81.35
    [5000, 97.54], // clamped to 1000: e^−3.68208 = 0.02518; 2/1.02518 − 1 = 0.95088 → 97.54
  ])('%d cp → %d%%', (cp, pct) => {
    expect(winPercentFromCp(cp)).toBeCloseTo(pct, 1);
  });

  test('mates are certainty in lichess terms (the ±1000 cp clamp)', () => {
    expect(winPercent(mateEval(7))).toBeCloseTo(97.54, 1);
    expect(winPercent(mateEval(-1))).toBeCloseTo(2.46, 1);
  });
});

describe('centipawn loss, cap and reconciliation (spec rules 1-3)', () => {
  test('plain case: before +0.50 for the mover, after −0.20 for the opponent = +0.20 for the mover → 30 cp, reconciles', () => {
    const l = moveLoss(cpEval(50), cpEval(-20), false);
    expect(l.evalAfterMover).toEqual(cpEval(20));
    expect(l.centipawnLoss).toBe(30);
    expect(l.capApplied).toBe(false);
    expect(l.lossReconciles).toBe(true);
  });

  test('case 1, the cap: +8.00 → opponent +2.00 (mover −2.00): raw 1000, published min(800,500) − (−200) = 700', () => {
    const l = moveLoss(cpEval(800), cpEval(200), false);
    expect(l.evalBeforeMover.value - l.evalAfterMover.value).toBe(1000);
    expect(l.centipawnLoss).toBe(700);
    expect(l.capApplied).toBe(true);
    expect(l.lossReconciles).toBe(false);
  });

  test("case 2, the engine's first choice: +0.50 → +0.20 for the mover is 30 raw, published 0", () => {
    const l = moveLoss(cpEval(50), cpEval(-20), true);
    expect(l.centipawnLoss).toBe(0);
    expect(l.swingCentipawns).toBe(30);
    expect(l.lossReconciles).toBe(false);
  });

  test('case 3, negative arithmetic: +0.20 → +0.60 for the mover is −40 raw, published 0', () => {
    const l = moveLoss(cpEval(20), cpEval(-60), false);
    expect(l.swingCentipawns).toBe(-40);
    expect(l.centipawnLoss).toBe(0);
    expect(l.lossReconciles).toBe(false);
  });

  test('case 4, a mate score: +3.00 → opponent mates in 4: mover −99996; published 300 − (−500) = 800', () => {
    const l = moveLoss(cpEval(300), mateEval(4), false);
    expect(l.evalAfterMover).toEqual(mateEval(-4));
    expect(l.centipawnLoss).toBe(800);
    expect(l.capApplied).toBe(true);
    expect(l.lossReconciles).toBe(false);
  });

  test('mate kept from mate in 3 to mate in 2 (opponent mated in 2): clamped 500 − 500 = 0', () => {
    const l = moveLoss(mateEval(3), mateEval(-2), false);
    expect(l.centipawnLoss).toBe(0);
    expect(l.lossReconciles).toBe(false); // raw 99997 − 99998 = −1
  });
});
