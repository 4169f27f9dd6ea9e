import type { Chess, Color, PieceSymbol, Square } from 'chess.js';

/** Conventional piece values in pawns; the king is not material. */
export const PIECE_VALUE: Record<PieceSymbol, number> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };
export const PIECE_NAME: Record<PieceSymbol, string> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

export function other(c: Color): Color {
  return c === 'w' ? 'b' : 'w';
}

/** The cheapest opponent piece that can legally capture on `square` (side to move captures), or null. */
export function cheapestLegalCapturer(board: Chess, square: Square): { from: Square; piece: PieceSymbol } | null {
  let best: { from: Square; piece: PieceSymbol } | null = null;
  for (const m of board.moves({ verbose: true })) {
    if (m.to !== square || !m.captured) continue;
    if (!best || PIECE_VALUE[m.piece] < PIECE_VALUE[best.piece]) best = { from: m.from, piece: m.piece };
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
