import { describe, expect, test } from 'vitest';
import { parseTimeControl } from '../../src/chess/clocks.js';
import { cheapestLegalCapturer } from '../../src/chess/material.js';
import { boardAt } from '../../src/chess/replay.js';
import { buildPlies, type AnalysedPly } from '../../src/chess/plyAnalysis.js';
import { makeAnalysis, type LineSpec, type S } from '../helpers/analysis.js';

function plies(opts: { sanMoves: string[]; evals: S[]; lines?: Record<number, LineSpec[]>; startFen?: string }, clocks: number[] | null = null, tc = '180+0'): AnalysedPly[] {
  return buildPlies(makeAnalysis(opts), { userColour: 'white', clocks, timeControl: parseTimeControl(tc) });
}
const ids = (p: AnalysedPly) => p.ply.concepts.map((c) => c.id);
const concept = (p: AnalysedPly, id: string) => p.ply.concepts.find((c) => c.id === id);

describe('concept detectors v1', () => {
  test('hanging_piece: 3.Ng5?? leaves the knight undefended and Qxg5 takes it', () => {
    // 1.e4 e5 2.Nf3 Nc6 3.Ng5: d8-e7-f6-g5 is open, nothing of White guards g5 (Bc1 is blocked by d2).
    const p = plies({
      sanMoves: ['e4', 'e5', 'Nf3', 'Nc6', 'Ng5', 'Qxg5'],
      evals: [30, -30, 40, -40, 40, 400, -400],
      lines: { 4: [{ score: 40, pv: 'Bc4' }] },
    });
    expect(p[4].ply.classification).toBe('blunder');
    expect(concept(p[4], 'hanging_piece')?.evidence).toEqual({ square: 'g5', piece: 'knight', capturedBy: 'Qxg5', defended: false });
  });

  test('hanging_piece never fires on an even exchange: 4.Bxc6 dxc6 (Ruy Lopez, Exchange Variation)', () => {
    // 4.Bxc6 judged an Inaccuracy here (+0.40 → −0.40: drop 0.147) so the detectors look at it; dxc6 takes back a
    // bishop for the knight Bxc6 took: nothing hung.
    const p = plies({
      sanMoves: ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Bxc6', 'dxc6'],
      evals: [30, -30, 40, -40, 40, -40, 40, 40, -40],
      lines: { 6: [{ score: 40, pv: 'Ba4' }] },
    });
    expect(p[6].ply.classification).toBe('inaccuracy');
    expect(p[6].replyLine[0]).toBe('d7c6');
    expect(ids(p[6])).not.toContain('hanging_piece');
  });

  test('hanging_piece never fires on a queen trade: 11.Qxd7+ Kxd7', () => {
    // Judged a Mistake (+0.50 → −1.00: drop 0.274); the king takes back the queen the move took.
    const p = plies({ startFen: '4k3/3q4/8/8/8/8/8/3QK3 w - - 0 11', sanMoves: ['Qxd7+', 'Kxd7'], evals: [50, 100, -100], lines: { 0: [{ score: 50, pv: 'Ke2' }] } });
    expect(p[0].ply.classification).toBe('mistake');
    expect(p[0].replyLine[0]).toBe('e8d7');
    expect(ids(p[0])).not.toContain('hanging_piece');
  });

  test('a capture that loses more than it took still hangs: 3.Nxe5?? dxe5 (a knight for a pawn)', () => {
    const p = plies({
      sanMoves: ['e4', 'e5', 'Nf3', 'd6', 'Nxe5', 'dxe5'],
      evals: [30, -30, 40, -40, 40, 300, -300],
      lines: { 4: [{ score: 40, pv: 'd4' }] },
    });
    expect(p[4].ply.classification).toBe('blunder');
    expect(concept(p[4], 'hanging_piece')?.evidence).toEqual({ square: 'e5', piece: 'knight', capturedBy: 'dxe5', defended: false });
  });

  test('missed_capture and forcing_move_missed: 2.a3 instead of 2.exd5', () => {
    // Before: White +0.80 (w 57.3) with exd5 first; after 2.a3 Black +0.60 → White −0.60 (w 44.5): loss 12.8, a mistake.
    const p = plies({ sanMoves: ['e4', 'd5', 'a3'], evals: [30, -40, 80, 60], lines: { 2: [{ score: 80, pv: 'exd5' }] } });
    expect(p[2].ply.classification).toBe('mistake');
    expect(concept(p[2], 'missed_capture')?.evidence).toEqual({ bestMove: 'exd5', square: 'd5', piece: 'pawn', played: 'a3' });
    expect(concept(p[2], 'forcing_move_missed')?.evidence).toEqual({ bestMove: 'exd5', kind: 'capture', played: 'a3' });
  });

  test('an inaccuracy that misses a capture is not a missed forcing move (serious errors only)', () => {
    // −0.10 for White after (w 49.1) from +0.80 (57.3): loss 8.2 → inaccuracy.
    const p = plies({ sanMoves: ['e4', 'd5', 'a3'], evals: [30, -40, 80, 10], lines: { 2: [{ score: 80, pv: 'exd5' }] } });
    expect(p[2].ply.classification).toBe('inaccuracy');
    expect(ids(p[2])).toContain('missed_capture');
    expect(ids(p[2])).not.toContain('forcing_move_missed');
  });

  test('allowed_mate then missed_mate: 3...Nf6?? allows Qxf7#, 4.d3 misses it', () => {
    const p = plies({
      sanMoves: ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'd3'],
      evals: [30, -30, 40, -40, 50, -50, { mate: 1 }, -50],
      lines: { 5: [{ score: -50, pv: 'g6' }], 6: [{ score: { mate: 1 }, pv: 'Qxf7#' }] },
    });
    expect(concept(p[5], 'allowed_mate')?.evidence).toEqual({ mateIn: 1, firstReply: 'Qxf7#' });
    expect(concept(p[6], 'missed_mate')?.evidence).toEqual({ mateIn: 1, bestMove: 'Qxf7#', played: 'd3' });
    // f7 is not Black's back rank.
    expect(ids(p[5])).not.toContain('back_rank');
    expect(ids(p[6])).not.toContain('back_rank');
  });

  test('back_rank (missed): Rd8# was there, h3 played; the check was also a missed forcing move', () => {
    const p = plies({ startFen: '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30', sanMoves: ['h3'], evals: [{ mate: 1 }, -300], lines: { 0: [{ score: { mate: 1 }, pv: 'Rd8#' }] } });
    expect(ids(p[0])).toContain('missed_mate');
    expect(concept(p[0], 'back_rank')?.evidence).toEqual({ role: 'missed', mateSquare: 'd8', piece: 'rook', kingSquare: 'g8' });
    expect(concept(p[0], 'forcing_move_missed')?.evidence).toMatchObject({ bestMove: 'Rd8#', kind: 'check' });
  });

  test('back_rank (allowed): Ra7?? lets Rd1# in (king g1 boxed in by f2 g2 h2)', () => {
    const p = plies({ startFen: '3r2k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30', sanMoves: ['Ra7'], evals: [0, { mate: 1 }], lines: { 0: [{ score: 0, pv: 'Kf1' }], 1: [{ score: { mate: 1 }, pv: 'Rd1#' }] } });
    expect(concept(p[0], 'allowed_mate')?.evidence).toEqual({ mateIn: 1, firstReply: 'Rd1#' });
    expect(concept(p[0], 'back_rank')?.evidence).toEqual({ role: 'allowed', mateSquare: 'd1', piece: 'rook', kingSquare: 'g1' });
  });

  test('fork (played): Nc7+ hits the king on e8 and the rook on a8', () => {
    const p = plies({ startFen: 'r3k3/8/8/1N6/8/8/8/4K3 w - - 0 40', sanMoves: ['Nc7+'], evals: [500, -500] });
    expect(concept(p[0], 'fork')?.evidence).toEqual({
      role: 'played',
      square: 'c7',
      piece: 'knight',
      targets: [
        { square: 'a8', piece: 'rook' },
        { square: 'e8', piece: 'king' },
      ],
    });
  });

  test('pin (played): 3.Bb5 pins the c6 knight to the king (d7 is empty after ...d6)', () => {
    const p = plies({ sanMoves: ['e4', 'd6', 'd4', 'Nc6', 'Bb5'], evals: [30, -30, 40, -40, 40, -40] });
    expect(concept(p[4], 'pin')?.evidence).toEqual({ role: 'played', pins: [{ pinner: 'b5', pinned: 'c6', target: 'e8', targetPiece: 'king' }] });
  });

  test.each([
    // 2.Qg4 is not a named opening position; all four white minors are at home.
    [['e4', 'e5', 'Qg4'], 'early_queen'],
    [['e4', 'e5', 'h4'], 'rook_pawn'],
  ])('opening_principle on an opening error: %j → %s', (moves, rule) => {
    // +0.40 → after, Black +0.50 (White −0.50): w 53.67 → 45.4, loss 8.3 → inaccuracy.
    const p = plies({ sanMoves: moves, evals: [30, -30, 40, 50], lines: { 2: [{ score: 40, pv: 'Nf3' }] } });
    expect(p[2].ply.classification).toBe('inaccuracy');
    expect(p[2].ply.phase).toBe('opening');
    expect(concept(p[2], 'opening_principle')?.evidence).toMatchObject({ rule, moveNumber: 2 });
  });

  test('opening_principle needs an error: the same 2.h4 as the first choice has no tag', () => {
    const p = plies({ sanMoves: ['e4', 'e5', 'h4'], evals: [30, -30, 40, -40] });
    expect(ids(p[2])).not.toContain('opening_principle');
  });

  test('time_trouble: 3+0 → threshold min(120, max(10, 10% of 180)) = 18 s, strictly under', () => {
    // clocks after each ply: W 179, B 18, W 15, B 170, W 12, B 160
    const p = plies({ sanMoves: ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5'], evals: [30, -30, 40, -40, 40, -40, 40] }, [179, 18, 15, 170, 12, 160]);
    expect(ids(p[2])).not.toContain('time_trouble'); // White before ply 3: 179
    expect(ids(p[3])).not.toContain('time_trouble'); // Black before ply 4: 18, not under 18
    expect(concept(p[4], 'time_trouble')?.evidence).toEqual({ clockSecondsBefore: 15, thresholdSeconds: 18, baseSeconds: 180, incrementSeconds: 0 });
    expect(p[4].ply.timeSpentSeconds).toBe(3); // 15 − 12 + 0
  });

  test('no clocks, no time_trouble', () => {
    const p = plies({ sanMoves: ['e4', 'e5'], evals: [30, -30, 40] }, null);
    expect(p.every((x) => x.ply.clockSecondsBefore === null && !ids(x).includes('time_trouble'))).toBe(true);
  });
});

describe('legal capturers (en prise test)', () => {
  test.each([
    // King g2 may take the undefended knight on f3 …
    ['7k/8/8/8/8/5n2/6K1/8 w - - 0 1', 'f3', { from: 'g2', piece: 'k' }],
    // … but not when the e4 pawn defends it.
    ['7k/8/8/8/4p3/5n2/6K1/8 w - - 0 1', 'f3', null],
    // The d2 knight attacks f3 but is pinned to e1 by the b4 bishop.
    ['7k/8/8/8/1b6/5q2/3N4/4K3 w - - 0 1', 'f3', null],
    // A pinned bishop may capture its own pinner.
    ['7k/8/8/8/1b6/8/3B4/4K3 w - - 0 1', 'b4', { from: 'd2', piece: 'b' }],
  ])('%s: capturer on %s', (fen, square, expected) => {
    expect(cheapestLegalCapturer(boardAt(fen)!, square as Parameters<typeof cheapestLegalCapturer>[1])).toEqual(expected);
  });
});

describe('fork allowed', () => {
  test('h3?? lets ...Nc2+ fork the king on e1 and the rook on a1', () => {
    const p = plies({
      startFen: '4k3/8/8/8/3n4/8/7P/R3K3 w - - 0 40',
      sanMoves: ['h3'],
      evals: [0, 300],
      lines: { 0: [{ score: 0, pv: 'Kd2' }], 1: [{ score: 300, pv: 'Nc2+' }] },
    });
    expect(p[0].ply.classification).toBe('blunder'); // 50 → w(−300) = 24.9
    expect(concept(p[0], 'fork')?.evidence).toEqual({
      role: 'allowed',
      move: 'Nc2+',
      square: 'c2',
      piece: 'knight',
      targets: [
        { square: 'a1', piece: 'rook' },
        { square: 'e1', piece: 'king' },
      ],
    });
  });
});
