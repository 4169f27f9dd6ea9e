import { Chess } from 'chess.js';

// chess.js (BSD-2-Clause) replays the moves so the board can show every position; its licence
// ships next to the bundle (third-party-licenses.txt).

export interface Position {
  /** 0 = the start position, n = after ply n. */
  ply: number;
  fen: string;
  san: string | null;
  uci: string | null;
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** The start FEN a PGN's [FEN] header names, if any. */
export function pgnStartFen(pgn: string | null | undefined): string {
  const m = /\[FEN\s+"([^"]+)"\]/.exec(pgn ?? '');
  return m ? m[1] : START;
}

/** Every position of a SAN move list from a start FEN; stops at the first move that does not parse. */
export function replay(sanMoves: readonly string[], startFen = START): Position[] {
  const chess = new Chess(startFen);
  const out: Position[] = [{ ply: 0, fen: chess.fen(), san: null, uci: null }];
  for (const san of sanMoves) {
    try {
      const m = chess.move(san);
      out.push({ ply: out.length, fen: chess.fen(), san: m.san, uci: `${m.from}${m.to}${m.promotion ?? ''}` });
    } catch {
      break;
    }
  }
  return out;
}

/** The mainline SAN moves of a PGN text (comments and variations dropped by chess.js). */
export function pgnMoves(pgn: string): { moves: string[]; startFen: string } {
  const chess = new Chess();
  chess.loadPgn(pgn);
  const moves = chess.history();
  return { moves, startFen: pgnStartFen(pgn) };
}
