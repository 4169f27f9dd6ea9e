import { Chess, type Move } from 'chess.js';

/** A move as every response shows it. */
export interface MoveRef {
  san: string;
  uci: string;
}

export function uciOf(m: Pick<Move, 'from' | 'to' | 'promotion'>): string {
  return m.from + m.to + (m.promotion ?? '');
}

/** Plays one UCI move on `board`; null (board unchanged) when it is not legal there. */
export function playUci(board: Chess, uci: string): Move | null {
  if (!/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(uci)) return null;
  try {
    return board.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] });
  } catch {
    return null;
  }
}

/** A board at the initial position, for callers above src/chess (which alone imports chess.js). */
export function startingBoard(): Chess {
  return new Chess();
}

/** A board at `fen`, or null when the FEN is not a valid position. */
export function boardAt(fen: string): Chess | null {
  try {
    return new Chess(fen);
  } catch {
    return null;
  }
}

const views = new Map<string, Chess>();
const VIEW_CACHE_SIZE = 512;

/**
 * A shared board at `fen` for read-only use (queries, or a move immediately undone): constructing
 * a chess.js board costs about as much as generating its moves, and the same positions are
 * inspected many times per ply. Callers must leave it as they found it.
 */
export function viewBoard(fen: string): Chess | null {
  const hit = views.get(fen);
  if (hit) return hit;
  const board = boardAt(fen);
  if (!board) return null;
  if (views.size >= VIEW_CACHE_SIZE) views.delete(views.keys().next().value!);
  views.set(fen, board);
  return board;
}

export interface ReplayedLine {
  san: string[];
  uci: string[];
  /** True when the stored line had a move that would not replay; the line stops before it. */
  truncated: boolean;
}

/** Replays a stored UCI line from `fen`, keeping the legal prefix (spec rule 4). */
export function replayLine(fen: string, line: readonly string[]): ReplayedLine {
  const board = boardAt(fen);
  if (!board) return { san: [], uci: [], truncated: line.length > 0 };
  const san: string[] = [];
  const uci: string[] = [];
  for (const u of line) {
    const mv = playUci(board, u);
    if (!mv) return { san, uci, truncated: true };
    san.push(mv.san);
    uci.push(uciOf(mv));
  }
  return { san, uci, truncated: false };
}

/** The SAN of one UCI move from `fen`, with its legality. */
export function moveRef(fen: string, uci: string): { move: MoveRef; legal: boolean; detail: Move | null } {
  const board = viewBoard(fen);
  const mv = board ? playUci(board, uci) : null;
  if (mv) board!.undo();
  return mv ? { move: { san: mv.san, uci: uciOf(mv) }, legal: true, detail: mv } : { move: { san: uci, uci }, legal: false, detail: null };
}
