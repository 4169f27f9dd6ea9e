import { Chess, validateFen } from 'chess.js';

export type FenCheck = { ok: true; fen: string } | { ok: false; reason: string };

/**
 * Whether a FEN is a position that can stand on a board in a game: chess.js's syntax and
 * consistency checks, then the rules it leaves out — one king each, the side that just moved
 * not left in check, no pawn on the first or last rank. Returns the FEN as chess.js writes it.
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
