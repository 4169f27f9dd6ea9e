import type { StoredAnalysis, StoredPosition } from '../../src/chess/engineOutput.js';
import type { Judgment, LichessEval } from '../../src/chess/index.js';
import { replaySan, START_FEN } from '../../src/chess/pgn.js';
import { gamePositions, sideToMove } from '../../src/chess/positions.js';

/** One game of a lichess NDJSON export (GET /api/games/user, evals=true), the fields the measurement reads. */
export interface LichessExportGame {
  id: string;
  moves: string;
  initialFen?: string;
  analysis?: Array<LichessEval & { judgment?: { name: Judgment } }>;
  players: Record<'white' | 'black', { analysis?: { inaccuracy: number; mistake: number; blunder: number; acpl: number } }>;
}

export function parseExport(ndjson: string): LichessExportGame[] {
  return ndjson
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LichessExportGame);
}

/**
 * lichess's own evaluations of an exported game as a stored review, so our classifier can run on them: the position
 * before ply 1 gets lichess's 15 cp; each position after gets its `analysis` entry restated for the side to move;
 * its one line starts with the entry's `best` when lichess gave one, else with the game move (lichess gives `best`
 * exactly when the game move was not its engine's first choice). A final checkmate is terminal, as lichess leaves it
 * unevaluated. Null when the moves do not replay.
 */
export function exportAsStoredAnalysis(g: LichessExportGame): StoredAnalysis | null {
  const startFen = g.initialFen ?? START_FEN;
  const plies = replaySan(g.moves.split(' ').filter(Boolean), startFen);
  if (!plies || !g.analysis) return null;
  const movesUci = plies.map((p) => p.uci);
  const white = [{ eval: 15 } as LichessEval, ...g.analysis];
  const positions: StoredPosition[] = gamePositions(startFen, movesUci).map((p, i) => {
    const e = white[i];
    const sign = sideToMove(p.fen) === 'white' ? 1 : -1;
    const score = !e || p.terminal ? null : typeof e.eval === 'number' ? { cp: e.eval * sign, mate: null } : typeof e.mate === 'number' ? { cp: null, mate: e.mate * sign } : null;
    const first = g.analysis![i]?.best ?? movesUci[i];
    const lines = score ? [{ multiPv: 1, score, pv: first ? [first] : [], depth: 0 }] : [];
    return { index: p.index, fen: p.fen, lines, terminal: p.terminal, depth: 0, nodes: 0 };
  });
  return {
    engine: { name: 'lichess', version: 'export' },
    budget: { nodesPerPosition: 0, multiPv: 1 },
    startFen,
    movesUci,
    positions,
    analysedAt: '1970-01-01T00:00:00.000Z',
  };
}
