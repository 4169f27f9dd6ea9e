import { Chess } from 'chess.js';

export type Terminal = 'checkmate' | 'stalemate' | 'insufficient' | 'draw';

export interface GamePosition {
  /** 0 is the start; N is after ply N. */
  index: number;
  fen: string;
  /** Set only on the final position: the game cannot continue (or a draw could be claimed) there. */
  terminal: Terminal | null;
}

/**
 * The positions of a move sequence, start included. Throws on an illegal move: a review never
 * analyses a sequence it cannot replay.
 */
export function gamePositions(startFen: string, movesUci: readonly string[]): GamePosition[] {
  const board = new Chess(startFen);
  const out: GamePosition[] = [{ index: 0, fen: board.fen(), terminal: null }];
  movesUci.forEach((uci, i) => {
    let ok = false;
    try {
      ok = Boolean(board.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] }));
    } catch {
      ok = false;
    }
    if (!ok) throw new Error(`move ${i + 1} (${uci}) is not legal`);
    out.push({ index: i + 1, fen: board.fen(), terminal: null });
  });
  const last = out[out.length - 1];
  if (board.isCheckmate()) last.terminal = 'checkmate';
  else if (board.isStalemate()) last.terminal = 'stalemate';
  else if (board.isInsufficientMaterial()) last.terminal = 'insufficient';
  else if (board.isThreefoldRepetition() || board.isDrawByFiftyMoves()) last.terminal = 'draw';
  return out;
}

/** The side to move in a FEN. */
export function sideToMove(fen: string): 'white' | 'black' {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}
