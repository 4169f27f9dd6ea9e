import type { Chess, Color, PieceSymbol, Square } from 'chess.js';

/** Conventional piece values in pawns; the king is not material. */
export const PIECE_VALUE: Record<PieceSymbol, number> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };
export const PIECE_NAME: Record<PieceSymbol, string> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

export function other(c: Color): Color {
  return c === 'w' ? 'b' : 'w';
}

/**
 * The cheapest piece of the side to move that can legally capture on `square`, or null.
 * Only the pseudo-legal attackers' own moves are generated (a full verbose move list builds SAN
 * and FENs for every move, which dominates the cost of a game's analysis).
 */
export function cheapestLegalCapturer(board: Chess, square: Square): { from: Square; piece: PieceSymbol } | null {
  let best: { from: Square; piece: PieceSymbol } | null = null;
  for (const from of board.attackers(square, board.turn())) {
    const piece = board.get(from);
    if (!piece || (best && PIECE_VALUE[piece.type] >= PIECE_VALUE[best.piece])) continue;
    if (board.moves({ square: from, verbose: true }).some((m) => m.to === square)) best = { from, piece: piece.type };
  }
  return best;
}

/**
 * Whether the piece of `owner` on `square` is en prise with the opponent to move: it can be captured
 * legally and either nothing of `owner` defends the square or the cheapest capturer is worth less.
 */
export function enPrise(board: Chess, square: Square, owner: Color): { capturer: PieceSymbol; defended: boolean } | null {
  const piece = board.get(square);
  if (!piece || piece.color !== owner || piece.type === 'k' || board.turn() === owner) return null;
  const capturer = cheapestLegalCapturer(board, square);
  if (!capturer) return null;
  const defended = board.attackers(square, owner).length > 0;
  if (defended && PIECE_VALUE[capturer.piece] >= PIECE_VALUE[piece.type]) return null;
  return { capturer: capturer.piece, defended };
}
