import { Chess, validateFen } from 'chess.js';

export type FenCheck = { ok: true; fen: string } | { ok: false; reason: string };

/**
 * Whether a FEN is a position that can stand on a board in a game: chess.js's syntax and
 * consistency checks, then the rules it leaves out — one king each, the side that just moved
 * not left in check, no pawn on the first or last rank, castling rights and the en-passant square
 * that the board could have (impossibleHistory). Returns the FEN as chess.js writes it.
 */
export function checkFen(input: string): FenCheck {
  const fen = input.trim().replace(/\s+/g, ' ');
  const syntax = validateFen(fen);
  if (!syntax.ok) return { ok: false, reason: syntax.error ?? 'not a valid FEN' };
  const [placement, turn] = fen.split(' ');
  const ranks = placement.split('/');
  const count = (piece: string) => [...placement].filter((c) => c === piece).length;
  if (count('K') !== 1 || count('k') !== 1) return { ok: false, reason: 'a position needs exactly one king of each colour' };
  if (/[pP]/.test(ranks[0]) || /[pP]/.test(ranks[7])) return { ok: false, reason: 'a pawn cannot stand on the first or last rank' };
  let board: Chess;
  try {
    board = new Chess(fen);
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : 'not a valid FEN' };
  }
  const history = impossibleHistory(board, fen);
  if (history) return { ok: false, reason: history };
  // The side not to move must not be in check: it would be the other side's move to capture the king.
  const notToMove = turn === 'w' ? 'b' : 'w';
  const king = board
    .board()
    .flat()
    .find((sq) => sq?.type === 'k' && sq.color === notToMove);
  if (king && board.isAttacked(king.square, turn as 'w' | 'b')) {
    return { ok: false, reason: `the side not to move (${notToMove === 'w' ? 'White' : 'Black'}) is in check` };
  }
  return { ok: true, fen: board.fen() };
}

/**
 * The castling rights and the en-passant square a FEN claims must fit the board (PGN standard
 * 16.1.3.3–16.1.3.4, the FEN fields; FIDE Laws 3.8.2 and 3.7.4):
 * - castling: a right needs its king and that rook still on their starting squares (neither has
 *   moved, 3.8.2.1): K = Ke1 + Rh1, Q = Ke1 + Ra1, k = ke8 + rh8, q = ke8 + ra8;
 * - en passant: the target is the square a pawn just passed over with its two-square advance
 *   (3.7.4): White to move and e6 means a black pawn on e5 that came from e7, so e6 and e7 are
 *   empty; Black to move and e3 means a white pawn on e4, with e3 and e2 empty. (chess.js already
 *   checks that the target is on the sixth rank with White to move, the third with Black.)
 * Returns the reason, or null when both fit.
 */
function impossibleHistory(board: Chess, fen: string): string | null {
  const [, turn, castling, ep] = fen.split(' ');
  const is = (square: string, color: 'w' | 'b', type: 'k' | 'r' | 'p') => {
    const piece = board.get(square as Parameters<Chess['get']>[0]);
    return piece !== undefined && piece !== null && piece.color === color && piece.type === type;
  };
  const rights: Record<string, [king: string, rook: string, color: 'w' | 'b']> = { K: ['e1', 'h1', 'w'], Q: ['e1', 'a1', 'w'], k: ['e8', 'h8', 'b'], q: ['e8', 'a8', 'b'] };
  for (const right of castling === '-' ? '' : castling) {
    const [king, rook, color] = rights[right] ?? [];
    if (!king) return `unknown castling right ${right}`;
    if (!is(king, color, 'k') || !is(rook, color, 'r')) {
      return `castling right ${right} needs the ${color === 'w' ? 'white' : 'black'} king on ${king} and a rook on ${rook}`;
    }
  }
  if (ep && ep !== '-') {
    const file = ep[0];
    // The pawn that moved belongs to the side not to move.
    const mover = turn === 'w' ? 'b' : 'w';
    const [pawnRank, fromRank] = mover === 'b' ? ['5', '7'] : ['4', '2'];
    const empty = (square: string) => !board.get(square as Parameters<Chess['get']>[0]);
    if (!is(file + pawnRank, mover, 'p') || !empty(ep) || !empty(file + fromRank)) {
      return `en-passant square ${ep} needs a ${mover === 'w' ? 'white' : 'black'} pawn on ${file}${pawnRank} that just came from ${file}${fromRank} (${ep} and ${file}${fromRank} empty)`;
    }
  }
  return null;
}
