import { describe, expect, test } from 'vitest';
import { classify, type ClassifyInput } from '../../src/chess/classification.js';
import { buildPlies } from '../../src/chess/plyAnalysis.js';
import { makeAnalysis } from '../helpers/analysis.js';

const base: ClassifyInput = {
  book: false,
  isBest: false,
  centipawnLoss: 20,
  winPercentBefore: 50,
  winPercentAfter: 48,
  previousOpponentLoss: 0,
  moverWinPercentBeforePrevious: 50,
  onlyMoveMargin: 0,
  forcedMove: false,
  sacrifice: false,
};

describe('classification rules (win% points, mover frame)', () => {
  test.each<[string, Partial<ClassifyInput>, string]>([
    ['book wins over everything', { book: true, winPercentAfter: 10 }, 'book'],
    ['loss 4.99 → good', { winPercentAfter: 45.01 }, 'good'],
    ['loss 5 → inaccuracy', { winPercentAfter: 45 }, 'inaccuracy'],
    ['loss 10 → mistake', { winPercentAfter: 40 }, 'mistake'],
    ['loss 15 → blunder', { winPercentAfter: 35 }, 'blunder'],
    ["first choice → best", { isBest: true, centipawnLoss: 0, winPercentAfter: 50 }, 'best'],
    ['not first choice but 0 cp conceded → best', { centipawnLoss: 0, winPercentAfter: 50 }, 'best'],
    ['first choice with margin 10 → great', { isBest: true, centipawnLoss: 0, onlyMoveMargin: 10 }, 'great'],
    ['first choice with margin 9.9 → best', { isBest: true, centipawnLoss: 0, onlyMoveMargin: 9.9 }, 'best'],
    ['the only legal move is never great', { isBest: true, centipawnLoss: 0, onlyMoveMargin: 30, forcedMove: true }, 'best'],
    ['sound sacrifice, loss < 2, ≥ 50 after → brilliant', { sacrifice: true, isBest: true, winPercentBefore: 63, winPercentAfter: 70 }, 'brilliant'],
    ['a sacrifice that leaves the mover below 50 is not brilliant', { sacrifice: true, isBest: true, winPercentBefore: 49, winPercentAfter: 48 }, 'best'],
    ['a sacrifice when already ≥ 97 is not brilliant', { sacrifice: true, isBest: true, winPercentBefore: 97.5, winPercentAfter: 97.5 }, 'best'],
    // Opponent blundered: mover 50 → 81.35 (+4.00); the move gives it back to 51.84 (+0.20): loss 29.5, ends ≥ 50 − 5.
    ['chance let go after the opponent’s error → miss', { previousOpponentLoss: 31.35, moverWinPercentBeforePrevious: 50, winPercentBefore: 81.35, winPercentAfter: 51.84 }, 'miss'],
    // Same chance, but the move drops to 32.38 (−2.00): worse than before the error → blunder.
    ['giving back more than the chance → blunder', { previousOpponentLoss: 31.35, moverWinPercentBeforePrevious: 50, winPercentBefore: 81.35, winPercentAfter: 32.38 }, 'blunder'],
    ['previous opponent move only an inaccuracy (9.9) → mistake', { previousOpponentLoss: 9.9, moverWinPercentBeforePrevious: 50, winPercentBefore: 60, winPercentAfter: 50 }, 'mistake'],
  ])('%s', (_, over, expected) => {
    expect(classify({ ...base, ...over })).toBe(expected);
  });
});

describe('classification on real positions', () => {
  test('1.e4 e5 2.Nf3 Nc6 are book; 3.Ke2 leaves the table and is judged by its loss', () => {
    // Before 3.Ke2 White +0.40 (59.1... w(40) = 53.67); after it Black +0.80 → White −0.80: w(−80) = 42.7 → loss 10.97 → mistake.
    const a = makeAnalysis({ sanMoves: ['e4', 'e5', 'Nf3', 'Nc6', 'Ke2'], evals: [30, -30, 40, -40, 40, 80], lines: { 4: [{ score: 40, pv: 'Bc4' }] } });
    const plies = buildPlies(a, { userColour: 'white', clocks: null, timeControl: null });
    expect(plies.map((p) => p.ply.classification)).toEqual(['book', 'book', 'book', 'book', 'mistake']);
    expect(plies[4].ply.centipawnLoss).toBe(120);
  });

  test('Greek gift Bxh7+ (bishop left to Kxh7, undefended), first choice, +1.50 → +2.50: brilliant', () => {
    const fen = 'rnbq1rk1/ppp2ppp/4p3/3pP3/3P4/3B1N2/PPP2PPP/RNBQK2R w KQ - 0 7';
    const a = makeAnalysis({ startFen: fen, sanMoves: ['Bxh7+', 'Kxh7'], evals: [150, -250, 250] });
    const [p] = buildPlies(a, { userColour: 'white', clocks: null, timeControl: null });
    expect(p.ply.isBestMove).toBe(true);
    expect(p.ply.classification).toBe('brilliant');
  });

  test('the same capture by a defended piece is no sacrifice: Bxh7+ with the queen on h5 behind it is best', () => {
    // The queen on h5 defends h7 (through h6), so the king cannot take: nothing is en prise.
    const fen = 'rnbq1rk1/ppp2ppp/4p3/3pP2Q/3P4/3B1N2/PPP2PPP/RNB1K2R w KQ - 0 7';
    const a = makeAnalysis({ startFen: fen, sanMoves: ['Bxh7+', 'Kh8'], evals: [150, -250, 250] });
    const [p] = buildPlies(a, { userColour: 'white', clocks: null, timeControl: null });
    expect(p.ply.classification).toBe('best');
  });

  test('only move: first choice +1.00 vs second −2.00 → margin w(100) − w(−200) = 59.10 − 32.38 = 26.7 → great', () => {
    const fen = 'rnbq1rk1/ppp2ppp/4p3/3pP3/3P4/3B1N2/PPP2PPP/RNBQK2R w KQ - 0 7';
    const a = makeAnalysis({
      startFen: fen,
      sanMoves: ['Nc3', 'Nc6'],
      evals: [100, -100, 100],
      lines: { 0: [{ score: 100, pv: 'Nc3 Nc6' }, { score: -200, pv: 'a3' }] },
    });
    const [p] = buildPlies(a, { userColour: 'white', clocks: null, timeControl: null });
    expect(p.ply.onlyMoveMargin).toBeCloseTo(26.7, 0);
    expect(p.ply.classification).toBe('great');
    expect(p.ply.alternatives).toEqual([{ move: { san: 'a3', uci: 'a2a3' }, eval: { type: 'cp', value: -200, pawns: -2, mateIn: null }, line: ['a3'], lineUci: ['a2a3'] }]);
  });

  test('good: not the first choice, +0.30 → +0.10 (w 52.76 → 50.92, loss 1.8)', () => {
    const fen = 'rnbq1rk1/ppp2ppp/4p3/3pP3/3P4/3B1N2/PPP2PPP/RNBQK2R w KQ - 0 7';
    const a = makeAnalysis({ startFen: fen, sanMoves: ['a3', 'a6'], evals: [30, -10, 10], lines: { 0: [{ score: 30, pv: 'Nc3' }] } });
    const [p] = buildPlies(a, { userColour: 'white', clocks: null, timeControl: null });
    expect(p.ply.isBestMove).toBe(false);
    expect(p.ply.centipawnLoss).toBe(20);
    expect(p.ply.classification).toBe('good');
  });

  test('miss on a real sequence: 3...Nf6?? offers mate, 4.d3 lets it go', () => {
    // Position 5 is Black to play before Nf6 (−0.50 for Black); position 6 White mates in 1;
    // position 7, after 4.d3, Black is −0.50 again: the chance is gone.
    const a = makeAnalysis({
      sanMoves: ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'd3'],
      evals: [30, -30, 40, -40, 50, -50, { mate: 1 }, -50],
      lines: { 6: [{ score: { mate: 1 }, pv: 'Qxf7#' }] },
    });
    const plies = buildPlies(a, { userColour: 'white', clocks: null, timeControl: null });
    expect(plies[5].ply.classification).toBe('blunder'); // Black: w(−50)=45.4 → mated ≈ 2.46
    expect(plies[6].ply.classification).toBe('miss'); // White: ≈97.5 → w(50)=54.6, was 54.6 before the error
  });
});
