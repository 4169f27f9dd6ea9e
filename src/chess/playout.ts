import { Chess } from 'chess.js';
import { pickPlausibleMove } from './plausibleMove.js';
import { playSan } from './sanReplay.js';

export interface Playout {
  san: string[];
  uci: string[];
  /** How the moves ended: a rule ending, or null when stopped at the requested length. */
  ending: 'checkmate' | 'stalemate' | 'draw' | null;
  /** The side that delivered mate, when ending is checkmate. */
  winner: 'white' | 'black' | null;
}

/**
 * Plays an opening line then plausible moves up to `targetPlies` (fewer if the game ends by rule).
 * Used for demo games: every move is legal because chess.js played it.
 */
export function playout(opening: readonly string[], targetPlies: number, random: () => number): Playout {
  const board = new Chess();
  const san: string[] = [];
  const uci: string[] = [];
  // playSan plays exactly what board.move(token) would, without building chess.js's Move object (src/chess/sanReplay.ts).
  const play = (token: string) => {
    const m = playSan(board, token);
    if (typeof m === 'string') throw new Error(`${token}: ${m === 'null' ? 'a null move' : 'not a legal move'} in the playout`);
    san.push(m.san);
    uci.push(m.uci);
  };
  for (const move of opening) play(move);
  // The mover finds no move on mate or stalemate; the draw rules checked here are the cheap ones
  // (isGameOver would generate every move twice more per ply).
  while (san.length < targetPlies && !board.isInsufficientMaterial() && !board.isThreefoldRepetition() && !board.isDrawByFiftyMoves()) {
    const pick = pickPlausibleMove(board, random);
    if (!pick) break;
    play(pick);
  }
  const ending = board.isCheckmate() ? 'checkmate' : board.isStalemate() ? 'stalemate' : board.isDraw() ? 'draw' : null;
  const winner = ending === 'checkmate' ? (board.turn() === 'w' ? 'black' : 'white') : null;
  return { san, uci, ending, winner };
}
