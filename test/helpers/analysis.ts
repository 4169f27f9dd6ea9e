import type { EngineLine, StoredAnalysis, StoredPosition } from '../../schemas/engine.js';
import { replaySan, START_FEN } from '../../src/chess/pgn.js';
import { boardAt } from '../../src/chess/replay.js';

/** A score as tests write it: centipawns (side to move) or { mate: N }. */
export type S = number | { mate: number };

export interface LineSpec {
  score: S;
  /** SAN line from the position. */
  pv: string;
}

const score = (s: S) => (typeof s === 'number' ? { cp: s, mate: null } : { cp: null, mate: s.mate });

/**
 * A hand-made StoredAnalysis: `sanMoves` from `startFen`; `evals[i]` is the side-to-move score of
 * position i (before ply i+1). Unless `lines[i]` says otherwise, position i has one line whose first
 * move is the game's next move (so the played move is the engine's first choice). Terminal
 * positions (checkmate, stalemate) get no lines, as the engine branch stores them.
 */
export function makeAnalysis(opts: {
  sanMoves: string[];
  evals: S[];
  lines?: Record<number, LineSpec[]>;
  startFen?: string;
  depth?: number;
  /** Indices of positions marked as searched again at the deeper budget (StoredPosition.deeper). */
  deeper?: number[];
}): StoredAnalysis {
  const startFen = opts.startFen ?? START_FEN;
  const plies = replaySan(opts.sanMoves, startFen);
  if (!plies) throw new Error('illegal test game');
  const fens = [startFen, ...plies.map((p) => p.fenAfter)];
  const positions: StoredPosition[] = fens.map((fen, i) => {
    const board = boardAt(fen)!;
    const terminal = board.isCheckmate() ? 'checkmate' : board.isStalemate() ? 'stalemate' : null;
    let lines: EngineLine[] = [];
    if (!terminal) {
      const specs = opts.lines?.[i] ?? (i < plies.length ? [{ score: opts.evals[i], pv: plies[i].san }] : []);
      lines = specs.map((l, k) => {
        const pv = replaySan(l.pv.split(' ').filter(Boolean), fen);
        if (!pv) throw new Error(`illegal pv at ${i}: ${l.pv}`);
        return { multiPv: k + 1, score: score(l.score), pv: pv.map((p) => p.uci), depth: opts.depth ?? 18 };
      });
      if (!opts.lines?.[i] && i >= plies.length && opts.evals[i] !== undefined) lines = [{ multiPv: 1, score: score(opts.evals[i]), pv: [], depth: opts.depth ?? 18 }];
    }
    return { index: i, fen, lines, terminal, depth: opts.depth ?? 18, nodes: 150000, ...(opts.deeper?.includes(i) ? { deeper: true as const } : {}) };
  });
  return {
    engine: { name: 'Stockfish', version: '17' },
    budget: { nodesPerPosition: 150000, multiPv: 2 },
    startFen,
    movesUci: plies.map((p) => p.uci),
    positions,
    analysedAt: '2026-11-20T10:00:00.000Z',
  };
}

/** The start of QUIET_GAME: a French Defence middlegame, White to play move 7. */
export const QUIET_FEN = 'rnbq1rk1/ppp2ppp/4p3/3pP3/3P4/3B1N2/PPP2PPP/RNBQK2R w KQ - 0 7';

/**
 * Six quiet pawn moves from QUIET_FEN with hand-set evaluations and engine lines, the game the
 * analysis and moments tests work their figures from by hand. `lines` replaces the engine lines of
 * the positions it names (a second line for alternatives, say).
 */
export function quietGame(lines: Record<number, LineSpec[]> = {}): StoredAnalysis {
  return makeAnalysis({
    startFen: QUIET_FEN,
    sanMoves: ['a3', 'a6', 'h3', 'h6', 'b3', 'b6'],
    evals: [100, 300, 200, -100, 100, 100, -100],
    lines: { 0: [{ score: 100, pv: 'Nc3 Nc6' }], 1: [{ score: 300, pv: 'Nc6' }], 2: [{ score: 200, pv: 'Nc3' }], 4: [{ score: 100, pv: 'Nc3' }], ...lines },
  });
}
