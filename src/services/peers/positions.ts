import { positionKey } from '../../chess/repertoire.js';
import { startingBoard } from '../../chess/replay.js';
import { playSan, undoPlayed } from '../../chess/sanReplay.js';
import type { Colour } from '../../chess/types.js';
import { lineTrie, type LineNode } from '../prep/index.js';

/**
 * Which of the owner's positions are compared with their peers (issue 40): those where the owner is to
 * move, whose move is one of the first PEER_PLIES plies, reached by at least PEER_MIN_OWNER_GAMES of the
 * owner's games of that colour; the most-reached first, at most PEER_MAX_POSITIONS per colour.
 *
 * Why these numbers: 16 plies is the book phase most club games share (the tree's problem lines look as
 * deep); under 8 games an owner's score moves 6 points or more with one result, so a comparison says
 * little; 40 positions per colour keep a first run to 40 requests (lichess asks for one at a time: some
 * 20–40 s), and a position past the 40th has fewer games than every one before it.
 */
export const PEER_PLIES = 16;
export const PEER_MIN_OWNER_GAMES = 8;
export const PEER_MAX_POSITIONS = 40;

export interface OwnerMove {
  san: string;
  uci: string;
  games: number;
  win: number;
  draw: number;
  loss: number;
}

export interface OwnerPosition {
  /** SAN from move 1, space-separated ('' at the start). */
  line: string;
  fen: string;
  /** Placement, side to move, castling: the cache key, so transpositions share one answer. */
  key: string;
  games: number;
  /** The owner's moves from here, most games first. */
  moves: OwnerMove[];
}

export interface PositionBounds {
  plies: number;
  minGames: number;
  limit: number;
}

export const DEFAULT_BOUNDS: PositionBounds = { plies: PEER_PLIES, minGames: PEER_MIN_OWNER_GAMES, limit: PEER_MAX_POSITIONS };

/** The owner's positions to compare, from their games of `colour` (SAN mainline, result from their side). */
export function ownerPositions(
  games: ReadonlyArray<{ sanMoves: string; result: 'win' | 'draw' | 'loss' }>,
  colour: Colour,
  bounds: PositionBounds = DEFAULT_BOUNDS,
): OwnerPosition[] {
  const root = lineTrie(games, bounds.plies);
  const own = colour === 'white' ? 0 : 1;
  const out: OwnerPosition[] = [];
  const board = startingBoard();
  const line: string[] = [];
  const walk = (n: LineNode) => {
    if (n.games < bounds.minGames || line.length >= bounds.plies) return;
    const ownerToMove = line.length % 2 === own;
    const moves: OwnerMove[] = [];
    const fen = board.fen();
    for (const [san, child] of n.children) {
      const played = playSan(board, san);
      if (typeof played === 'string') continue; // a damaged stored line is skipped
      if (ownerToMove) moves.push({ san, uci: played.uci, games: child.games, win: child.win, draw: child.draw, loss: child.games - child.win - child.draw });
      line.push(san);
      walk(child);
      line.pop();
      undoPlayed(board);
    }
    if (ownerToMove && moves.length) {
      moves.sort((a, b) => b.games - a.games || a.san.localeCompare(b.san));
      out.push({ line: line.join(' '), fen, key: positionKey(fen), games: n.games, moves });
    }
  };
  walk(root);
  return out.sort((a, b) => b.games - a.games || a.line.split(' ').length - b.line.split(' ').length || a.line.localeCompare(b.line)).slice(0, bounds.limit);
}
