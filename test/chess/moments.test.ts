import { describe, expect, test } from 'vitest';
import { selectMoments } from '../../src/chess/moments.js';
import { buildPlies } from '../../src/chess/plyAnalysis.js';
import { deriveAll } from '../../src/services/review/derive.js';
import { summarizeReview } from '../../src/services/review/summary.js';
import { makeAnalysis } from '../helpers/analysis.js';

// Out of book from move 7: White a3?, Black a6??, White h3 (inaccuracy), Black h6, White b3?, Black b6.
const FEN = 'rnbq1rk1/ppp2ppp/4p3/3pP3/3P4/3B1N2/PPP2PPP/RNBQK2R w KQ - 0 7';
function game() {
  return makeAnalysis({
    startFen: FEN,
    sanMoves: ['a3', 'a6', 'h3', 'h6', 'b3', 'b6'],
    evals: [100, 300, 200, -100, 100, 100, -100],
    lines: {
      0: [{ score: 100, pv: 'Nc3 Nc6' }],
      1: [
        { score: 300, pv: 'Nc6 Nc3' },
        { score: 290, pv: 'Nd7' },
        { score: 200, pv: 'c5' },
      ],
      2: [{ score: 200, pv: 'Nc3' }],
      4: [{ score: 100, pv: 'Nc3' }],
    },
  });
}
// Win% (lichess): w(100)=59.10, w(−300)=24.90, w(300)=75.10, w(−200)=32.38, w(200)=67.62, w(−100)=40.90.
// ply 1 a3: 59.10 → 24.90, lost 34.2 (major);  ply 2 a6: 75.10 → 32.38, lost 42.7 (critical);
// ply 3 h3: 67.62 → 59.10, lost 8.5 (inaccuracy, 100 cp); ply 5 b3: 59.10 → 40.90, lost 18.2 (moderate).
const plies = () => buildPlies(game(), { userColour: 'white', clocks: null, timeControl: null });

describe('critical moments', () => {
  test('engine moments are the plies losing ≥ 15 win%, in ply order, with severities', () => {
    const sel = selectMoments(plies(), game(), { side: 'both', maxMoments: 40 });
    expect(sel.moments.map((m) => [m.ply, m.type, m.severity, m.source])).toEqual([
      [1, 'blunder', 'major', 'engine'],
      [2, 'blunder', 'critical', 'engine'],
      [5, 'blunder', 'moderate', 'engine'],
    ]);
    expect(sel.matching).toBe(3);
    expect(sel.truncated).toBe(false);
    // ply 1: clamped 100 − (−300) = 400
    expect(sel.moments[0].evalSwingCentipawns).toBe(400);
    expect(sel.moments.every((m) => m.summarySource === 'template' && m.matchesKnownWeakness === null)).toBe(true);
  });

  test('maxMoments keeps the most severe and returns them in ply order', () => {
    const sel = selectMoments(plies(), game(), { side: 'both', maxMoments: 2 });
    expect(sel.moments.map((m) => m.ply)).toEqual([1, 2]);
    expect(sel.matching).toBe(3);
    expect(sel.truncated).toBe(true);
    expect(selectMoments(plies(), game(), { side: 'both', maxMoments: 1 }).moments.map((m) => m.ply)).toEqual([2]);
  });

  test('minSeverity drops lower severities', () => {
    expect(selectMoments(plies(), game(), { side: 'both', minSeverity: 'major', maxMoments: 40 }).moments.map((m) => m.ply)).toEqual([1, 2]);
    expect(selectMoments(plies(), game(), { side: 'both', minSeverity: 'critical', maxMoments: 40 }).moments.map((m) => m.ply)).toEqual([2]);
  });

  test('minCentipawnLoss adds derived moments with a null type; 101 does not reach h3 (100 cp)', () => {
    const sel = selectMoments(plies(), game(), { side: 'both', minCentipawnLoss: 100, maxMoments: 40 });
    expect(sel.moments.map((m) => [m.ply, m.source, m.type])).toEqual([
      [1, 'engine', 'blunder'],
      [2, 'engine', 'blunder'],
      [3, 'derived', null],
      [5, 'engine', 'blunder'],
    ]);
    expect(sel.matchingBySource).toEqual({ engine: 3, derived: 1 });
    expect(selectMoments(plies(), game(), { side: 'both', minCentipawnLoss: 101, maxMoments: 40 }).matchingBySource.derived).toBe(0);
  });

  test('side user keeps the owner’s (White’s) moves', () => {
    expect(selectMoments(plies(), game(), { side: 'user', maxMoments: 40 }).moments.map((m) => m.ply)).toEqual([1, 5]);
  });

  test('acceptable answers: first choice plus alternatives within 0.25 pawns (Nd7 at 0.10 yes, c5 at 1.00 no)', () => {
    const m = selectMoments(plies(), game(), { side: 'both', maxMoments: 40 }).moments[1];
    expect(m.acceptableAnswers.map((a) => a.san)).toEqual(['Nc6', 'Nd7']);
    expect(m.bestMove).toEqual({ san: 'Nc6', uci: 'b8c6' });
    // Hints narrow (quiet move, a knight) without naming it.
    expect(m.hints.length).toBeGreaterThanOrEqual(3);
    expect(m.hints.join(' ')).not.toMatch(/Nc6|Nd7|c6/);
    expect(m.hints.join(' ')).toContain('knight');
    expect(m.trainingQuestion).not.toMatch(/Nc6/);
  });

  test('refutation is the best line after the played move, from the opponent’s point of view', () => {
    const m = selectMoments(plies(), game(), { side: 'both', maxMoments: 40 }).moments[0];
    // After 7.a3 Black (the opponent) is +3.00 with Nc6 Nc3.
    expect(m.refutation).toMatchObject({ line: ['Nc6', 'Nc3'], lineUci: ['b8c6', 'b1c3'], truncated: false, evalFrame: 'opponent', eval: { type: 'cp', value: 300 } });
    expect(m.continuation).toEqual({ line: ['Nc3', 'Nc6'], lineUci: ['b1c3', 'b8c6'], truncated: false });
  });

  test('a stored line that will not replay is truncated at its last legal move and flagged', () => {
    const a = game();
    a.positions[0].lines[0].pv.push('e1e8');
    const p = buildPlies(a, { userColour: 'white', clocks: null, timeControl: null });
    expect(p[0].ply.principalVariation).toEqual(['Nc3', 'Nc6']);
    expect(p[0].ply.principalVariationTruncated).toBe(true);
    expect(selectMoments(p, a, { side: 'both', maxMoments: 40 }).moments[0].continuation?.truncated).toBe(true);
  });

  test('a position without stored lines yields no evaluations and no moment', () => {
    const a = game();
    a.positions[1].lines = [];
    const p = buildPlies(a, { userColour: 'white', clocks: null, timeControl: null });
    expect(p[0].ply.evalAfter).toBeNull();
    expect(selectMoments(p, a, { side: 'both', maxMoments: 40 }).moments.map((m) => m.ply)).toEqual([5]);
  });

  test('brilliancies are moments exempt from minSeverity', () => {
    const a = makeAnalysis({ startFen: FEN, sanMoves: ['Bxh7+', 'Kxh7'], evals: [150, -250, 250] });
    const p = buildPlies(a, { userColour: 'white', clocks: null, timeControl: null });
    const sel = selectMoments(p, a, { side: 'both', minSeverity: 'critical', maxMoments: 40 });
    expect(sel.moments.map((m) => [m.ply, m.type])).toEqual([[1, 'brilliant']]);
  });

  test('review summary: counts over the nine keys, stored accuracies, brief moments', () => {
    const a = game();
    const { derivation, view } = deriveAll(a);
    const review = { movesKey: 'k', reviewedAt: '2026-11-21T09:00:00.000Z', engine: 'Stockfish 17', nodesPerPosition: 1, derivation, view: () => view, engineOutput: () => a };
    const s = summarizeReview(review, 'black');
    expect(s.classificationCounts).toEqual({ book: 0, brilliant: 0, best: 2, great: 0, good: 0, inaccuracy: 1, mistake: 0, miss: 0, blunder: 3 });
    expect(s.accuracyForUser).toBe(derivation.accuracyBlack);
    expect(s.analysedAt).toBe('2026-11-21T09:00:00.000Z');
    expect(s.depth).toBe(18);
    expect(s.engineVersion).toBe('Stockfish 17');
    expect(s.criticalMoments.map((m) => [m.ply, m.move, m.type, m.evalSwing])).toEqual([
      [1, 'a3', 'blunder', 4],
      [2, 'a6', 'blunder', 5],
      [5, 'b3', 'blunder', 2],
    ]);
  });
});
