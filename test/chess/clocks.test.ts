import { describe, expect, test } from 'vitest';
import { parseClocks, parseTimeControl, plyClock } from '../../src/chess/clocks.js';
import { gamePhases, positionPhase } from '../../src/chess/phase.js';
import { boardAt, replayLine } from '../../src/chess/replay.js';
import { START_FEN } from '../../src/chess/pgn.js';

describe('time controls', () => {
  test.each([
    ['300+2', 300, 2],
    ['600', 600, 0],
    ['40/5400+30:1800+30', 5400, 30],
    ['1/259200', null, null],
    ['-', null, null],
  ])('%s → base %s, increment %s', (raw, base, inc) => {
    expect(parseTimeControl(raw)).toEqual({ raw, baseSeconds: base, incrementSeconds: inc });
  });
  test('no value → null', () => expect(parseTimeControl(null)).toBeNull());
});

describe('stored clock lists', () => {
  test('seconds after each ply, a missing reading null in its place', () => {
    expect(parseClocks('[179.9,180,175.2,null,170]')).toEqual([179.9, 180, 175.2, null, 170]);
    expect(parseClocks('[60,"x",58]')).toEqual([60, null, 58]);
  });
  test('no readings at all, or not a list, is no clocks', () => {
    for (const raw of [null, '', '[]', '[null,null]', '{"a":1}', 'not json', '42']) expect(parseClocks(raw), String(raw)).toBeNull();
  });
});

describe('clock readings', () => {
  const tc = parseTimeControl('180+2');
  const clocks = [179, 178, 170, 175, 15, 160];
  test('first move of each side starts from the base time; time spent adds the increment back', () => {
    // ply 1: 180 → 179, spent 180 − 179 + 2 = 3
    expect(plyClock(clocks, 1, tc)).toEqual({ clockSecondsBefore: 180, clockSecondsAfter: 179, timeSpentSeconds: 3 });
    // ply 5 (White's third): before = after ply 3 = 170, after 15 → 170 − 15 + 2 = 157
    expect(plyClock(clocks, 5, tc)).toEqual({ clockSecondsBefore: 170, clockSecondsAfter: 15, timeSpentSeconds: 157 });
  });
  test('no readings → all null', () => {
    expect(plyClock(null, 3, tc)).toEqual({ clockSecondsBefore: null, clockSecondsAfter: null, timeSpentSeconds: null });
  });
});

describe('replay', () => {
  test('a line with an illegal move is cut at its last legal move and flagged', () => {
    // e2e4 e7e5 are legal; e4e5 is blocked by the e5 pawn.
    expect(replayLine(START_FEN, ['e2e4', 'e7e5', 'e4e5', 'g1f3'])).toEqual({ san: ['e4', 'e5'], uci: ['e2e4', 'e7e5'], truncated: true });
    expect(replayLine(START_FEN, ['g1f3', 'g8f6'])).toEqual({ san: ['Nf3', 'Nf6'], uci: ['g1f3', 'g8f6'], truncated: false });
  });
});

describe('phase divider-v1', () => {
  test('start position is the opening; 14 majors and minors, full back ranks', () => {
    expect(positionPhase(boardAt(START_FEN)!)).toBe('opening');
  });
  test('rook endgame: 2 majors and minors → endgame', () => {
    expect(positionPhase(boardAt('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30')!)).toBe('endgame');
  });
  test('white back rank down to K, R, R (3 pieces) → middlegame although 14 pieces remain', () => {
    // White: Ra1 Kg1 Rf1 on rank 1; Nc3 Nf3 Bd3 Be3 Qd2 developed.
    expect(positionPhase(boardAt('r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2NBBN2/PPPQ1PPP/R4RK1 b kq - 6 7')!)).toBe('middlegame');
  });
  test('phases never go back', () => {
    expect(gamePhases([START_FEN, '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30', START_FEN])).toEqual(['opening', 'endgame', 'endgame']);
  });
});
