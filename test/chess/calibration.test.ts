import { describe, expect, test } from 'vitest';
import type { StoredAnalysis } from '../../schemas/engine.js';
import { CP_SCALE_BY_NETWORK, cpScaleOf, onLichessScale } from '../../src/chess/calibration.js';
import { START_FEN } from '../../src/chess/pgn.js';
import { gamePositions } from '../../src/chess/positions.js';
import { analysisAccuracy, analysisJudgments } from '../../src/chess/reviewAccuracy.js';

const FULL = 'nn-1a298aa575a0.nnue';

// 1.e4 with the engine preferring 1.d4: position 0 White to move at 0 cp, position 1 Black to move at +60 cp for Black.
function review(network: string | null, source = false): StoredAnalysis {
  const scores = [{ cp: 0, mate: null }, { cp: 60, mate: null }];
  return {
    engine: { name: 'Stockfish', version: '19 WASM', build: 'full', network },
    ...(source ? { source: { name: 'lichess' as const, gameId: 'abcdefgh', judgments: [null] } } : {}),
    budget: { nodesPerPosition: 30_000, multiPv: 1 },
    startFen: START_FEN,
    movesUci: ['e2e4'],
    positions: gamePositions(START_FEN, ['e2e4']).map((p, i) => ({
      index: p.index,
      fen: p.fen,
      lines: [{ multiPv: 1, score: scores[i], pv: [i === 0 ? 'd2d4' : 'e7e5'], depth: 12 }],
      terminal: null,
      depth: 12,
      nodes: 30_000,
    })),
    analysedAt: '2026-11-27T00:00:00.000Z',
  };
}

describe("centipawns on lichess's scale", () => {
  test('the full build network has its measured factor; an unmeasured network or none reads as it comes', () => {
    expect(cpScaleOf({ name: 'Stockfish', version: '19 WASM', network: FULL })).toBe(CP_SCALE_BY_NETWORK[FULL]);
    expect(CP_SCALE_BY_NETWORK[FULL]).toBeGreaterThan(0.7);
    expect(CP_SCALE_BY_NETWORK[FULL]).toBeLessThan(1);
    expect(cpScaleOf({ name: 'Stockfish', version: '15.1', network: 'nn-ad9b42354671.nnue' })).toBe(1);
    expect(cpScaleOf({ name: 'Stockfish', version: 'old' })).toBe(1);
    expect(cpScaleOf(undefined)).toBe(1);
  });

  test('cp × factor, rounded; mates and terminal positions as they are; the stored review untouched', () => {
    const a = review(FULL);
    a.positions[0].lines.push({ multiPv: 2, score: { cp: null, mate: -3 }, pv: ['f2f3'], depth: 12 });
    const k = CP_SCALE_BY_NETWORK[FULL];
    const scaled = onLichessScale(a);
    expect(scaled.positions[1].lines[0].score).toEqual({ cp: Math.round(60 * k), mate: null });
    expect(scaled.positions[0].lines[1].score).toEqual({ cp: null, mate: -3 });
    expect(a.positions[1].lines[0].score).toEqual({ cp: 60, mate: null });
    expect(onLichessScale(review('nn-unknown.nnue'))).toEqual(review('nn-unknown.nnue'));
  });

  test('a source review (lichess’s own evaluations) is never rescaled', () => {
    const a = review(FULL, true);
    expect(onLichessScale(a)).toBe(a);
  });

  test('a drop just over the inaccuracy threshold raw falls under it on lichess’s scale (0.84)', () => {
    // Worked by hand on lichess's curve wc(cp) = 2 / (1 + e^(−0.00368208 cp)) − 1 (lila Advice.scala):
    // raw: White goes from 0 to −60, a drop of wc(60) = 0.1100 ≥ 0.1: Inaccuracy.
    // scaled by 0.84: −60 → −50, wc(50) = 0.0918 < 0.1: not judged.
    expect(CP_SCALE_BY_NETWORK[FULL]).toBe(0.84);
    expect(analysisJudgments(review('nn-unknown.nnue'), () => false)).toEqual(['Inaccuracy']);
    expect(analysisJudgments(onLichessScale(review(FULL)), () => false)).toEqual([null]);
    // And White's accuracy rises with it: lichess's move accuracy of a smaller win% loss.
    expect(analysisAccuracy(onLichessScale(review(FULL))).white).toBeGreaterThan(analysisAccuracy(review(FULL)).white);
  });
});
