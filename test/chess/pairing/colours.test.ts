import { describe, expect, it } from 'vitest';
import { allocate, colourInfo, ABSOLUTE, MILD, NONE, STRONG, type ColourSide } from '../../../src/chess/pairing/colours.js';
import { pairNextRound } from '../../../src/chess/pairing/index.js';
import type { RoundEntry } from '../../../src/chess/pairing/state.js';
import { tournament } from './build.js';

const g = (colour: 'white' | 'black', result: 'win' | 'draw' | 'loss' | 'forfeitWin' | 'forfeitLoss' = 'draw'): RoundEntry => ({
  kind: 'game',
  opponent: 99,
  colour,
  result,
});
const side = (rank: number, score: number, history: RoundEntry[]): ColourSide => ({ rank, score, colour: colourInfo(history) });

describe('colour preferences (C.04.3 A.6)', () => {
  it('no played game: no preference; forfeits and byes do not count', () => {
    expect(colourInfo([]).strength).toBe(NONE);
    expect(colourInfo([g('white', 'forfeitWin'), { kind: 'pab' }]).strength).toBe(NONE);
  });
  it('colour difference ±1 is a strong preference for the other colour', () => {
    expect(colourInfo([g('white')])).toMatchObject({ diff: 1, pref: 'black', strength: STRONG });
  });
  it('colour difference 0 is a mild preference to alternate from the last game', () => {
    expect(colourInfo([g('white'), g('black')])).toMatchObject({ diff: 0, pref: 'white', strength: MILD });
  });
  it('difference beyond ±1 or the same colour twice running is absolute', () => {
    expect(colourInfo([g('white'), g('white')])).toMatchObject({ diff: 2, pref: 'black', strength: ABSOLUTE });
    // W B B: difference -1 but the last two are black.
    expect(colourInfo([g('white'), g('black'), g('black')])).toMatchObject({ diff: -1, pref: 'white', strength: ABSOLUTE });
    // A forfeit between two blacks breaks nothing: the played games are B, B.
    expect(colourInfo([g('black'), g('white', 'forfeitLoss'), g('black')])).toMatchObject({ pref: 'white', strength: ABSOLUTE });
  });
});

describe('colour allocation (C.04.3 E)', () => {
  it('E.1 grants both preferences when they differ', () => {
    expect(allocate(side(1, 1, [g('white')]), side(2, 1, [g('black')]), 'white')).toBe('black');
  });
  it('E.2 the stronger preference wins', () => {
    // No. 1 mild white (W B), No. 2 absolute white (B B): No. 2 gets white.
    expect(allocate(side(1, 1, [g('white'), g('black')]), side(2, 1, [g('black'), g('black')]), 'white')).toBe('black');
  });
  it('E.3 alternates from the most recent round in which they had different colours', () => {
    // Both W B B W / B W B W: difference 0, last White, so both mildly prefer Black. Rounds 4 and 3 are equal;
    // in round 2 No. 1 had Black and No. 2 White, so No. 1 gets White (E.4 alone would have given No. 1 Black).
    const a = side(1, 2, [g('white'), g('black'), g('black'), g('white')]);
    const b = side(2, 2, [g('black'), g('white'), g('black'), g('white')]);
    expect(allocate(a, b, 'white')).toBe('white');
  });
  it('E.3 compares played games from the latest backwards, skipping unplayed rounds', () => {
    // Case 108, Nos. 20 and 37 (3 points each, both mildly prefer White).
    // No. 20: B, forfeit, W, W, B -> played B W W B. No. 37: W, B, W, half-point bye, B -> played W B W B.
    // From the end: B/B, W/W, then W/B: No. 20 had White, so No. 20 gets Black and No. 37 White.
    // (Matching round by round instead would reach round 1, B/W, and give No. 20 White.)
    const a = side(20, 3, [g('black'), g('white', 'forfeitWin'), g('white'), g('white'), g('black')]);
    const b = side(37, 3, [g('white'), g('black'), g('white'), { kind: 'halfBye' }, g('black')]);
    expect(allocate(a, b, 'white')).toBe('black');
  });
  it('E.4 otherwise the higher-ranked player gets the preference', () => {
    expect(allocate(side(5, 1, [g('white')]), side(2, 1, [g('white')]), 'white')).toBe('white'); // No. 2 is higher: gets black
    expect(allocate(side(5, 2, [g('white')]), side(2, 1, [g('white')]), 'white')).toBe('black'); // No. 5 has more points
  });
  it('E.5 no preferences: the higher-ranked player gets the initial colour on an odd pairing number', () => {
    expect(allocate(side(1, 0, []), side(4, 0, []), 'white')).toBe('white');
    expect(allocate(side(2, 0, []), side(5, 0, []), 'white')).toBe('black');
    expect(allocate(side(1, 0, []), side(4, 0, []), 'black')).toBe('black');
  });
});

describe('colours on the board', () => {
  it('round 1: top half against bottom half, the initial colour alternating by board', () => {
    const p = pairNextRound(tournament(5, [[], [], [], [], [], []], { initialColour: 'white' }));
    expect(p.boards).toEqual([
      { board: 1, white: 1, black: 4 },
      { board: 2, white: 5, black: 2 },
      { board: 3, white: 3, black: 6 },
    ]);
    expect(p.byes).toEqual([]);
  });

  it('round 2: winners meet, each player gets the colour they lacked', () => {
    // R1: 1 (White) beat 3, 2 (Black) beat 4. Winners 1 and 2 (strong black / strong white), losers 3 and 4.
    const s = tournament(5, [['3w1'], ['4b1'], ['1b0'], ['2w0']]);
    expect(pairNextRound(s).boards).toEqual([
      { board: 1, white: 2, black: 1 },
      { board: 2, white: 3, black: 4 },
    ]);
  });
});
