import { describe, expect, it } from 'vitest';
import { pairBracket } from '../../../src/chess/pairing/bracket.js';
import type { PairingPlayer } from '../../../src/chess/pairing/scoreGroups.js';

const player = (rank: number, score: number, float2: 'up' | 'down' | null = null, played: number[] = []): PairingPlayer => ({
  rank, score, colour: { byRound: [], diff: 0, pref: null, strength: 0 }, played: new Set(played),
  byeEligible: true, float1: null, float2, unplayed: 0, topscorer: false,
});

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
});
