import { Chess } from 'chess.js';

const VALUE: Record<string, number> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };

/**
 * Picks a plausible move for demo games without an engine: captures by value, checks,
 * development and castling early, and a strong dislike of putting a piece where the opponent
 * attacks it. `noise` (0..1) decides how often the mover ignores its own judgement.
 * It is a heuristic for generating realistic-looking games, not a chess engine.
 */
export function pickPlausibleMove(board: Chess, random: () => number, noise = 0.15): string | null {
  const moves = board.moves();
  if (moves.length === 0) return null;
  if (random() < noise) return moves[Math.floor(random() * moves.length)];
  const us = board.turn();
  const them = us === 'w' ? 'b' : 'w';
  const grid = board.board();
  const ply = (board.moveNumber() - 1) * 2 + (us === 'b' ? 1 : 0);
  let best = moves[0];
  let bestScore = -Infinity;
  for (const san of moves) {
    const dest = /([a-h][1-8])(=[QRBN])?[+#]?$/.exec(san)?.[1];
    const piece = /^[NBRQK]/.test(san) ? san[0].toLowerCase() : san.startsWith('O-') ? 'k' : 'p';
    let score = random() * 0.6;
    if (san.endsWith('#')) score += 1000;
    if (san.includes('+')) score += 0.4;
    if (san.startsWith('O-')) score += ply < 30 ? 1.5 : 0.3;
    if (san.includes('=Q')) score += 8;
    if (dest) {
      const file = dest.charCodeAt(0) - 97;
      const rank = 8 - Number(dest[1]);
      const target = grid[rank][file];
      if (san.includes('x')) score += target ? VALUE[target.type] : 1; // en passant has no piece on the square
      if (board.isAttacked(dest as never, them)) score -= VALUE[piece] * (san.includes('x') ? 0.7 : 0.95);
      if (ply < 20 && (piece === 'n' || piece === 'b') && /[1]|[8]/.test(san.replace(dest, '')) === false) score += 0.3;
      if (ply < 16 && piece === 'q') score -= 0.5;
      if (ply < 24 && piece === 'k' && !san.startsWith('O-')) score -= 1;
      if (ply < 20 && piece === 'p' && 'de'.includes(dest[0])) score += 0.25;
      score += 0.05 * (3.5 - Math.abs(3.5 - file));
    }
    if (score > bestScore) {
      bestScore = score;
      best = san;
    }
  }
  return best;
}
