import type { SeedPlayer } from '../../sources/chessresults/parse.js';

export interface EstimatedSide {
  startingRank: number;
  name: string;
  rating: number;
  points: number;
}

export interface EstimatedBoard {
  board: number;
  white: EstimatedSide;
  black: EstimatedSide;
}

/**
 * Round 1 of a Swiss from the seed list (CHESS-RESULTS.md B, "Round-1 convention", checked there against
 * bbpPairings): players known absent are left out; with an odd field the lowest-ranked player left takes the
 * pairing-allocated bye; of the n left, the i-th meets the (i + n/2)-th. The higher-ranked player on board 1
 * gets the initial colour, which is drawn by lot, and that player's colour alternates board by board. Unless
 * the caller knows the lot, White is assumed: colours are then a guess.
 */
export function estimateRound1(
  seeds: SeedPlayer[],
  opts: { absent?: ReadonlySet<number>; initialColour?: 'white' | 'black' } = {},
): { boards: EstimatedBoard[]; byes: SeedPlayer[] } {
  const topGets = opts.initialColour ?? 'white';
  const ordered = seeds.filter((p) => !opts.absent?.has(p.startingRank)).sort((a, b) => a.startingRank - b.startingRank);
  const byes = ordered.length % 2 === 1 ? [ordered[ordered.length - 1]] : [];
  const field = byes.length ? ordered.slice(0, -1) : ordered;
  const half = field.length / 2;
  const side = (p: SeedPlayer): EstimatedSide => ({ startingRank: p.startingRank, name: p.name, rating: p.rating, points: 0 });
  const boards = field.slice(0, half).map((top, i) => {
    const bottom = field[i + half];
    const topWhite = (i % 2 === 0) === (topGets === 'white');
    return { board: i + 1, white: side(topWhite ? top : bottom), black: side(topWhite ? bottom : top) };
  });
  return { boards, byes };
}
