import { describe, expect, it } from 'vitest';
import { pairBracket } from '../../../src/chess/pairing/bracket.js';
import type { PairingPlayer } from '../../../src/chess/pairing/scoreGroups.js';

const player = (rank: number, score: number, float2: 'up' | 'down' | null = null, played: number[] = [], unplayed = 0): PairingPlayer => ({
  rank, score, colour: { byRound: [], diff: 0, pref: null, strength: 0 }, played: new Set(played),
  byeEligible: true, float1: null, float2, unplayed, topscorer: false,
});
const pairsOf = (out: ReturnType<typeof pairBracket>) => out?.pairs.map(([a, b]) => [a.rank, b.rank].sort().join('-')).sort();

describe('one bracket of the Dutch system', () => {
  it('C.19: an upfloater who also floated up two rounds before meets the MDP nearest its score', () => {
    // MDPs 1 (8 points) and 2 (7½), who have met, join residents 3 and 4 (7); 3 floated up two rounds ago. Both
    // residents float up either way and the PSD is the same (2 and 1 half-points), so C.19 decides: 3 meets 2 (one
    // half-point apart), not 1 (two), though the generation order alone would pair 1 with 3, the first of S2.
    const out = pairBracket([player(1, 8, null, [2]), player(2, 7.5), player(3, 7, 'up'), player(4, 7)], {
      score: 7, initialColour: 'white', last: true, completes: () => true,
      next: { residents: [], completesBelow: () => true },
    });
    expect(out?.pairs.map(([a, b]) => [a.rank, b.rank].sort().join('-')).sort()).toEqual(['1-4', '2-3']);
    // Without that history the generation order stands: 1-3, 2-4.
    const plain = pairBracket([player(1, 8, null, [2]), player(2, 7.5), player(3, 7), player(4, 7)], {
      score: 7, initialColour: 'white', last: true, completes: () => true,
      next: { residents: [], completesBelow: () => true },
    });
    expect(plain?.pairs.map(([a, b]) => [a.rank, b.rank].sort().join('-')).sort()).toEqual(['1-3', '2-4']);
  });

  it('C.9: when nobody below may take the bye, the floater who will is one with the fewest unplayed games', () => {
    // Residents 1, 2, 3 on 3 points, one floats; below, only No. 4 (2½), who may not take the bye, so the floater
    // meets 4 or takes the bye. No. 3 has an unplayed game. The generation order would float 3 (1-2); C.9 floats
    // 2 instead (1-3), the next transposition.
    const bracket = (unplayed3: number) => pairBracket([player(1, 3), player(2, 3), player(3, 3, null, [], unplayed3)], {
      score: 3, initialColour: 'white', last: false, completes: () => true, byeFromAbove: true,
      next: { residents: [{ ...player(4, 2.5), byeEligible: false }], completesBelow: () => true },
    });
    expect(pairsOf(bracket(1))).toEqual(['1-3']);
    expect(bracket(1)?.floaters.map((p) => p.rank)).toEqual([2]);
    expect(pairsOf(bracket(0))).toEqual(['1-2']);
  });
});
