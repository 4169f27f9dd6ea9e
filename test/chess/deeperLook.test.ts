import { describe, expect, test } from 'vitest';
import { unsettledPositions, type DeeperMargins } from '../../src/chess/deeperLook.js';
import type { StoredPosition } from '../../src/chess/engineOutput.js';

// Side-to-move centipawns of each position's two lines; position i + 1 follows the ply from position i.
const game = (cps: Array<[number, number] | 'mated'>): StoredPosition[] =>
  cps.map((c, index) =>
    c === 'mated'
      ? { index, fen: 'x', lines: [], terminal: 'checkmate', depth: 0, nodes: 0 }
      : { index, fen: 'x', lines: c.map((cp, k) => ({ multiPv: k + 1, score: { cp, mate: null }, pv: [`line${k + 1}`], depth: 1 })), terminal: null, depth: 1, nodes: 1 },
  );
// The moves played: the second line's move each time (no move is the first choice) unless a test says otherwise.
const PLAYED = ['line2', 'line2', 'line2', 'line2'];
const m: DeeperMargins = { judgment: 0.03, great: 4, mateCp: 500, moments: false };

// Worked by hand on lichess's curve, winning chances wc(cp) = 2 / (1 + e^(−0.00368208 cp)) − 1:
// wc(55) = 0.1009, wc(40) = 0.0734, wc(20) = 0.0368, wc(200) = 0.3522, wc(100) = 0.1820, wc(400) = 0.6269.
describe('the deeper look: which positions the first pass cannot settle', () => {
  test('a ply losing 0.1009 (within 0.03 of the inaccuracy threshold 0.1): both its positions; a ply losing 0 is left alone', () => {
    // Ply 1: White 0 → −55 (drop 0.1009). Ply 2: Black +55 → +55 (drop 0). Ply 3: White −55 → −55 (drop 0).
    expect(unsettledPositions(game([[0, -1], [55, 54], [-55, -56], [55, 54]]), PLAYED, m)).toEqual([0, 1]);
  });

  test('drops of 0.0734 and 0.0368: the first within 0.03 of 0.1, the second not', () => {
    expect(unsettledPositions(game([[0, -1], [40, 39]]), PLAYED, m)).toEqual([0, 1]);
    expect(unsettledPositions(game([[0, -1], [20, 19]]), PLAYED, m)).toEqual([]);
  });

  test('a blunder far from every threshold (drop 0.3522): searched again only for the moment it makes', () => {
    const g = game([[0, -1], [200, 199]]);
    expect(unsettledPositions(g, PLAYED, m)).toEqual([]);
    expect(unsettledPositions(g, PLAYED, { ...m, moments: true })).toEqual([0, 1]);
  });

  test('a first choice that could be great: played, gap ≥ 10 − 4 win% points, position not decided', () => {
    // +1.00 vs −0.20: 59.10 − 48.16 = 10.94 points; +1.00 vs +0.40: 59.10 − 53.67 = 5.43; +7.00 vs 0.00: win% 92.94 before, decided.
    // Each ply loses nothing (the next position is the same score for the other side).
    expect(unsettledPositions(game([[100, -20], [-100, -101]]), ['line1'], m)).toEqual([0]);
    expect(unsettledPositions(game([[100, -20], [-100, -101]]), ['line2'], m)).toEqual([]);
    expect(unsettledPositions(game([[100, 40], [-100, -101]]), ['line1'], m)).toEqual([]);
    expect(unsettledPositions(game([[700, 0], [-700, -701]]), ['line1'], { ...m, mateCp: 0 })).toEqual([]);
  });

  test('a recapture on the square just captured on is never great, so it is not searched again for it', () => {
    // 1.e4 d5 2.exd5 (d5 held a black pawn) Qxd5: the first choice, with a gap of 10.94 points; no ply loses anything.
    const fens = [
      'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
      'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
      'rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2',
      'rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3',
    ];
    const positions = game([[0, -1], [-100, -101], [100, -20], [-100, -101]]).map((p, i) => ({ ...p, fen: fens[i], lines: p.lines.map((l, k) => ({ ...l, pv: [k === 0 && i === 2 ? 'd8d5' : `line${k + 1}`] })) }));
    expect(unsettledPositions(positions, ['d7d5', 'e4d5', 'd8d5'], m)).toEqual([]);
    // The same, had d5 been empty before White's second move (no capture there, so …Qd5 recaptures nothing): searched again.
    const quiet = positions.map((p, i) => (i === 1 ? { ...p, fen: 'rnbqkbnr/ppp1pppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2' } : p));
    expect(unsettledPositions(quiet, ['d7d5', 'e4d5', 'd8d5'], m)).toEqual([2]);
  });

  test('a large evaluation may hide a mate: |cp| ≥ 500 is searched again, 499 is not; a terminal position never is', () => {
    expect(unsettledPositions(game([[499, 498], [-499, -500]]), PLAYED, m)).toEqual([]);
    expect(unsettledPositions(game([[500, 499], [-500, -501]]), PLAYED, m)).toEqual([0, 1]);
    // Ply into mate is judged by lichess's mate bands, not by winning chances: nothing to settle.
    expect(unsettledPositions(game([[100, 99], 'mated']), PLAYED, m)).toEqual([]);
  });
});
