import { describe, expect, test } from 'vitest';
import type { StoredAnalysis, StoredPosition } from '../../schemas/engine.js';
import { gameAccuracy } from '../../src/chess/accuracy.js';
import { gameJudgments } from '../../src/chess/judgments.js';
import { buildPlies } from '../../src/chess/plyAnalysis.js';
import { analysisAccuracy, analysisEvals, positionScore } from '../../src/chess/reviewAccuracy.js';
import { makeAnalysis } from '../helpers/analysis.js';
import { gamePositions } from '../../src/chess/positions.js';
import { START_FEN } from '../../src/chess/pgn.js';

// Fool's mate: 1.f3 e5 2.g4 Qh4#. Positions 0-4; position 4 is checkmate with White to move.
const moves = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];

function analysis(scores: Array<{ cp: number | null; mate: number | null } | null>): StoredAnalysis {
  const positions: StoredPosition[] = gamePositions(START_FEN, moves).map((p, i) => ({
    index: p.index,
    fen: p.fen,
    lines: scores[i] ? [{ multiPv: 1, score: scores[i]!, pv: ['a2a3'], depth: 10 }] : [],
    terminal: p.terminal,
    depth: scores[i] ? 10 : 0,
    nodes: scores[i] ? 1000 : 0,
  }));
  return {
    engine: { name: 'Stockfish', version: 'test' },
    budget: { nodesPerPosition: 1000, multiPv: 1 },
    startFen: START_FEN,
    movesUci: moves,
    positions,
    analysedAt: '2026-11-20T12:00:00.000Z',
  };
}

describe('scores from the side to move → White\'s point of view', () => {
  test('the final position of fool\'s mate is recognised as checkmate', () => {
    expect(gamePositions(START_FEN, moves).map((p) => p.terminal)).toEqual([null, null, null, null, 'checkmate']);
  });

  test('cp and mate scores flip sign when Black is to move; the final mated position has no entry, as on lichess', () => {
    // After 1.f3 (Black to move) Black is +40 → White -40; after 1...e5 (White to move) White -60;
    // after 2.g4 (Black to move) Black mates in 1 → White is mated in 1: mate -1; after 2...Qh4# White is mated,
    // which lichess's analysis leaves out (fishnet AnalysisBuilder.scala filters checkmate evaluations).
    const a = analysis([{ cp: 20, mate: null }, { cp: 40, mate: null }, { cp: -60, mate: null }, { cp: null, mate: 1 }, null]);
    expect(analysisEvals(a)).toEqual([{ eval: -40 }, { eval: -60 }, { mate: -1 }]);
    expect(positionScore(a.positions[4])).toEqual({ cp: null, mate: 0 });
  });
});

describe("a review's accuracy and judgments are lichess's, on its own evaluations", () => {
  test('a game ending in mate: accuracy equals gameAccuracy of its evaluations without the mated position', () => {
    // Scholar's mate with White's 2.Bc4 and 3.Qh5 each giving a little away: 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6?? 4.Qxf7#.
    const a = makeAnalysis({
      sanMoves: ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#'],
      evals: [30, -30, 40, 60, -50, 80, { mate: 1 }, 0],
    });
    // White's view after each ply; the mated position after 4.Qxf7# has no entry.
    const evals = [{ eval: 30 }, { eval: 40 }, { eval: -60 }, { eval: -50 }, { eval: -80 }, { mate: 1 }];
    expect(analysisEvals(a)).toEqual(evals);
    expect(analysisAccuracy(a)).toEqual(gameAccuracy(evals));
    // The old review path counted the mated position as +1000 for White: one more 100% move for White.
    const counted = gameAccuracy([...evals, { eval: 1000 }])!;
    expect(analysisAccuracy(a).white).toBeLessThan(counted.white - 1);
  });

  test("the review's judgments are gameJudgments of its evaluations, the engine's first choices left out", () => {
    // 1.e4 is the engine's first choice; 1…e5, 2.Nf3 and 2…Nc6 are not.
    const a = makeAnalysis({
      sanMoves: ['e4', 'e5', 'Nf3', 'Nc6'],
      evals: [30, -30, 80, -80, 300],
      lines: { 1: [{ score: -30, pv: 'c5' }], 2: [{ score: 80, pv: 'd4' }], 3: [{ score: -80, pv: 'Nf6' }] },
    });
    const plies = buildPlies(a, { userColour: 'white', clocks: null, timeControl: null });
    const start = { eval: 30 };
    const expected = gameJudgments(analysisEvals(a), { initial: start, isFirstChoice: (i) => i === 0 });
    expect(plies.map((p) => p.judgment)).toEqual(expected);
    // By hand, White's view +0.30 (after e4) → +0.80 (after e5): Black's drop wc(80) − wc(30) = 0.1463 − 0.0552 = 0.0911,
    // not judged; Nf3 keeps +0.80; Nc6 +0.80 → +3.00: Black's drop wc(300) − wc(80) = 0.5031 − 0.1463 = 0.357, a Blunder.
    expect(expected).toEqual([null, null, null, 'Blunder']);
  });
});
