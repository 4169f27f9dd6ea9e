import { describe, expect, it } from 'vitest';
import { completer } from '../../../src/chess/pairing/byes.js';
import { nextBracketOutcome } from '../../../src/chess/pairing/nextBracket.js';
import { pairingPlayers, type PairingPlayer } from '../../../src/chess/pairing/scoreGroups.js';
import { tournament } from './build.js';

const player = (rank: number, score: number, played: number[] = []): PairingPlayer => ({
  rank, score, colour: { byRound: [], diff: 0, pref: null, strength: 0 }, played: new Set(played),
  byeEligible: true, float1: null, float2: null, unplayed: 0, topscorer: false,
});

describe('C.7: the next bracket, judged from the floaters', () => {
  // Next bracket: residents 16 and 18 on 1 point; below them only 17 on ½, who has met 16. Floater 11 (1½) may
  // meet both residents; floater 13 (1½) has met 16.
  const r16 = player(16, 1), r18 = player(18, 1), below = [player(17, 0.5, [16])];
  const next = { residents: [r16, r18], completesBelow: completer(below) };

  it('pairs an MDP with a resident when the resident sent down still completes the round (C.4)', () => {
    // 11-16, and 18 floats to meet 17. PSD in half-points: 11-16 is 1, 18 against the artificial value one point
    // below the bracket is 2; squared, 1 + 4.
    expect(nextBracketOutcome([player(11, 1.5)], next)).toEqual({ pairs: 1, psd: 5 });
  });

  it('sends the MDP on when pairing it would leave a resident with nobody below (C.4), at a higher PSD', () => {
    // 13-18 would leave 16 to float to 17, whom 16 has met: so 16-18 and 13 floats on, 3 half-points above
    // the artificial value: 9. Without the completion test 13-18 would look as good as 11-16 (5).
    expect(nextBracketOutcome([player(13, 1.5, [16])], next)).toEqual({ pairs: 1, psd: 9 });
    expect(nextBracketOutcome([player(13, 1.5, [16])], { ...next, completesBelow: () => true })).toEqual({ pairs: 1, psd: 5 });
  });

  it('counts fewer pairs when the floaters cannot be placed at all', () => {
    // Floater 13 has met both residents, and they have met each other: nobody pairs; 16 and 18 float (4 each),
    // 13 floats (9). Below is completable whatever floats.
    const lonely = { residents: [player(16, 1, [18]), r18], completesBelow: () => true };
    expect(nextBracketOutcome([player(13, 1.5, [16, 18])], lonely)).toEqual({ pairs: 0, psd: 17 });
  });
});

describe('floats of unplayed rounds (A.4)', () => {
  it('a bye or a forfeit win is a downfloat; a zero-point absence or a forfeit loss is none', () => {
    // Round 1: 1 beat 2; 3 absent with 0 (Z); 4 half-point bye (H); 5 won by forfeit against 6; 7 had the PAB.
    const s = tournament(5, [['2w1'], ['1b0'], ['Z'], ['H'], ['6w+'], ['5b-'], ['U']]);
    const float1 = new Map(pairingPlayers(s).map((p) => [p.rank, p.float1]));
    expect(Object.fromEntries(float1)).toEqual({ 1: null, 2: null, 3: null, 4: 'down', 5: 'down', 6: null, 7: 'down' });
  });
});
