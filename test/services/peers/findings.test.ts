import { describe, expect, test } from 'vitest';
import { comparePosition, findingsOf, type OwnerPosition } from '../../../src/services/peers/index.js';
import type { ExplorerAnswer } from '../../../src/sources/lichess/explorer.js';

// The thresholds of src/services/peers/findings.ts on small answers worked by hand (White to move after 1.e4 e5).
const mv = (uci: string, san: string, white: number, draws: number, black: number) => ({ uci, san, averageRating: 1700, white, draws, black });
const answer = (moves: ExplorerAnswer['moves']): ExplorerAnswer => ({
  white: moves.reduce((s, m) => s + m.white, 0),
  draws: moves.reduce((s, m) => s + m.draws, 0),
  black: moves.reduce((s, m) => s + m.black, 0),
  moves,
  opening: null,
});
const owner = (moves: Array<[string, string, number]>): OwnerPosition => ({
  line: 'e4 e5',
  fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
  key: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq',
  games: moves.reduce((s, [, , g]) => s + g, 0),
  moves: moves.map(([san, uci, games]) => ({ san, uci, games, win: games, draw: 0, loss: 0 })),
});
const run = (pos: OwnerPosition, a: ExplorerAnswer) => findingsOf([{ position: comparePosition(pos, 'white', a), owner: pos, peers: a, colour: 'white' }]);

describe('findings', () => {
  test.each([
    {
      // Nf3 1,000 games: (500 + 100/2) / 1000 = 55%; Bc4 200: (90 + 20/2) / 200 = 50%; gap 5 → scoresWorse, at stake 4 × 5 / 100 = 0.2.
      name: 'a gap of exactly 5 points is scoresWorse',
      peers: [mv('g1f3', 'Nf3', 500, 100, 400), mv('f1c4', 'Bc4', 90, 20, 90)],
      mine: [['Bc4', 'f1c4', 4]] as Array<[string, string, number]>,
      want: [['Bc4', ['scoresWorse'], 0.2, 'Nf3']],
    },
    {
      // Nf3 has 99 games: no score, so Bc4 (50%, 200 of 299 games: 66.9%) has no alternative to lose to and is not rare.
      name: 'under 100 peers’ games a move has no score and cannot be the alternative',
      peers: [mv('g1f3', 'Nf3', 60, 0, 39), mv('f1c4', 'Bc4', 90, 20, 90)],
      mine: [['Bc4', 'f1c4', 4]] as Array<[string, string, number]>,
      want: [],
    },
    {
      // 3 of 1,203 games = 0.2% < 2%: rare; its 3 games give no score, so not scoresWorse.
      name: 'a move the peers rarely play is rare, without a score under 100 games',
      peers: [mv('g1f3', 'Nf3', 500, 100, 400), mv('f1c4', 'Bc4', 90, 20, 90), mv('d1h5', 'Qh5', 1, 0, 2)],
      mine: [['Qh5', 'd1h5', 5]] as Array<[string, string, number]>,
      want: [['Qh5', ['rare'], null, 'Nf3']],
    },
    {
      name: 'a move the explorer does not list counts as 0%: rare',
      peers: [mv('g1f3', 'Nf3', 500, 100, 400)],
      mine: [['a3', 'a2a3', 3]] as Array<[string, string, number]>,
      want: [['a3', ['rare'], null, 'Nf3']],
    },
    {
      name: 'a move played in 2 of the owner’s games is not judged',
      peers: [mv('g1f3', 'Nf3', 500, 100, 400)],
      mine: [['a3', 'a2a3', 2]] as Array<[string, string, number]>,
      want: [],
    },
    {
      name: 'no rare in a position the peers reached under 100 times',
      peers: [mv('g1f3', 'Nf3', 50, 0, 49)],
      mine: [['a3', 'a2a3', 3]] as Array<[string, string, number]>,
      want: [],
    },
  ])('$name', ({ peers, mine, want }) => {
    const got = run(owner(mine), answer(peers));
    expect(got.map((f) => [f.san, f.reasons, f.pointsAtStake, f.alternative?.san])).toEqual(want);
  });

  test('ranked: points at stake first, then rare moves by games', () => {
    const a = answer([mv('g1f3', 'Nf3', 600, 0, 400), mv('f1c4', 'Bc4', 500, 0, 500), mv('b1c3', 'Nc3', 400, 0, 600), mv('a2a3', 'a3', 1, 0, 1)]);
    // Nf3 60%; Bc4 50% (gap 10 × 3 games / 100 = 0.3); Nc3 40% (gap 20 × 3 / 100 = 0.6); a3 2 of 3,002 games: rare (4 games, no score).
    const got = run(owner([['Bc4', 'f1c4', 3], ['Nc3', 'b1c3', 3], ['a3', 'a2a3', 4]]), a);
    expect(got.map((f) => [f.san, f.pointsAtStake])).toEqual([['Nc3', 0.6], ['Bc4', 0.3], ['a3', null]]);
  });
});
