import type { Chess, Color, PieceSymbol, Square } from 'chess.js';

/** Conventional piece values in pawns; the king is not material. */
export const PIECE_VALUE: Record<PieceSymbol, number> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };
export const PIECE_NAME: Record<PieceSymbol, string> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

export function other(c: Color): Color {
  return c === 'w' ? 'b' : 'w';
}

/**
 * The cheapest piece of the side to move that can legally capture on `square`, or null.
 * From the pseudo-legal attackers: a king may not capture a defended piece, and a piece pinned to
 * its king may only capture its pinner. In check, the full legal move list decides instead.
 */
export function cheapestLegalCapturer(board: Chess, square: Square): { from: Square; piece: PieceSymbol } | null {
  const side = board.turn();
  const enemy = other(side);
  const inCheck = board.inCheck();
  const legalTargets = inCheck ? null : undefined;
  let best: { from: Square; piece: PieceSymbol } | null = null;
  for (const from of board.attackers(square, side)) {
    const piece = board.get(from);
    if (!piece || (best && PIECE_VALUE[piece.type] >= PIECE_VALUE[best.piece])) continue;
    let legal: boolean;
    if (legalTargets === null) legal = board.moves({ square: from, verbose: true }).some((m) => m.to === square);
    else if (piece.type === 'k') legal = board.attackers(square, enemy).length === 0 && !xrayThroughKing(board, from, square, enemy);
    else legal = pinnerOf(board, from, side) === null || pinnerOf(board, from, side) === square;
    if (legal) best = { from, piece: piece.type };
  }
  return best;
}

const LINES: Array<[number, number]> = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];
const sq = (f: number, r: number) => `${'abcdefgh'[f]}${r + 1}` as Square;

/** The square of the enemy slider that pins the piece on `from` to its own king, or null. */
function pinnerOf(board: Chess, from: Square, side: Color): Square | null {
  const king = board.findPiece({ type: 'k', color: side })[0];
  if (!king) return null;
  const df = Math.sign(from.charCodeAt(0) - king.charCodeAt(0));
  const dr = Math.sign(Number(from[1]) - Number(king[1]));
  const aligned = df === 0 || dr === 0 || Math.abs(from.charCodeAt(0) - king.charCodeAt(0)) === Math.abs(Number(from[1]) - Number(king[1]));
  if (!aligned) return null;
  const diagonal = df !== 0 && dr !== 0;
  let seenFrom = false;
  for (let f = king.charCodeAt(0) - 97 + df, r = Number(king[1]) - 1 + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
    const s = sq(f, r);
    const p = board.get(s);
    if (!p) continue;
    if (!seenFrom) {
      if (s !== from) return null;
      seenFrom = true;
      continue;
    }
    if (p.color === side) return null;
    return p.type === 'q' || (diagonal ? p.type === 'b' : p.type === 'r') ? s : null;
  }
  return null;
}

/** A king capturing along a slider's line stays in that line's attack (the king itself hid the square). */
function xrayThroughKing(board: Chess, king: Square, target: Square, enemy: Color): boolean {
  const df = Math.sign(target.charCodeAt(0) - king.charCodeAt(0));
  const dr = Math.sign(Number(target[1]) - Number(king[1]));
  for (const [lf, lr] of LINES) {
    if (lf !== -df || lr !== -dr) continue;
    for (let f = king.charCodeAt(0) - 97 + lf, r = Number(king[1]) - 1 + lr; f >= 0 && f < 8 && r >= 0 && r < 8; f += lf, r += lr) {
      const p = board.get(sq(f, r));
      if (!p) continue;
      const diagonal = lf !== 0 && lr !== 0;
      return p.color === enemy && (p.type === 'q' || (diagonal ? p.type === 'b' : p.type === 'r'));
    }
  }
  return false;
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
