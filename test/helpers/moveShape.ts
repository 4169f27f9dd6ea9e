import { Chess } from 'chess.js';
import { playSan } from '../../src/chess/sanReplay.js';

/**
 * Two counts a chess player notices at a glance in made-up games (issue 45 item 11), per game, from the SAN moves:
 * - king moves (castling excluded) made in the first 20 moves (numbered 1 to 20) while both queens are on the board;
 * - knights or bishops moving onto one of their own side's home squares (b1 g1 / c1 f1 for White, b8 g8 / c8 f8
 *   for Black): a minor piece can only arrive there by going back.
 * The figures of the shared lichess games (test/fixtures/lichess-analysed) are the real games' yardstick.
 */
export interface MoveShape {
  kingMovesQueensOn: number;
  minorsHome: number;
}

const HOME: Record<'w' | 'b', Record<'N' | 'B', string[]>> = {
  w: { N: ['b1', 'g1'], B: ['c1', 'f1'] },
  b: { N: ['b8', 'g8'], B: ['c8', 'f8'] },
};

/** Both queens on the board. */
function bothQueens(board: Chess): boolean {
  return board.findPiece({ type: 'q', color: 'w' }).length > 0 && board.findPiece({ type: 'q', color: 'b' }).length > 0;
}

export function moveShape(san: readonly string[]): MoveShape {
  // playSan (src/chess/sanReplay.ts) plays a move without building chess.js's Move object: hundreds of games stay cheap.
  const board = new Chess();
  let kingMovesQueensOn = 0;
  let minorsHome = 0;
  for (const token of san) {
    const side = board.turn();
    const moveNumber = board.moveNumber();
    const queens = moveNumber <= 20 && bothQueens(board);
    const p = playSan(board, token);
    if (typeof p === 'string') throw new Error(`moves do not replay: ${token} is ${p} after ${san.slice(0, 12).join(' ')} …`);
    const piece = p.san[0];
    if (piece === 'K' && queens) kingMovesQueensOn += 1;
    if ((piece === 'N' || piece === 'B') && HOME[side][piece].includes(p.to)) minorsHome += 1;
  }
  return { kingMovesQueensOn, minorsHome };
}

/** Per-game means of both counts over a set of games. */
export function meanMoveShape(games: ReadonlyArray<readonly string[]>): MoveShape {
  const shapes = games.map(moveShape);
  const mean = (k: keyof MoveShape) => shapes.reduce((s, x) => s + x[k], 0) / Math.max(1, shapes.length);
  return { kingMovesQueensOn: mean('kingMovesQueensOn'), minorsHome: mean('minorsHome') };
}
