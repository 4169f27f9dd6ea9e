/**
 * What a review stores: the raw engine output per position, nothing derived. The engine
 * (src/engine) produces these; the chess rules read them; schemas/engine.ts validates them when
 * they come back from the store. Scores are as UCI reports them: from the side to move's point of view.
 */

export interface EngineScore {
  /** Centipawns, side to move; null when a mate score. */
  cp: number | null;
  /** Mate in N moves, side to move (negative: being mated); null for cp scores. */
  mate: number | null;
}

export interface EngineLine {
  multiPv: number;
  score: EngineScore;
  /** Principal variation in UCI. */
  pv: string[];
  depth: number;
}

export const TERMINALS = ['checkmate', 'stalemate', 'insufficient', 'draw'] as const;
export type Terminal = (typeof TERMINALS)[number];

export interface StoredPosition {
  /** Index into the game: position 0 is before ply 1; position N is after ply N. */
  index: number;
  fen: string;
  /** MultiPV lines, best first; empty for a terminal position (see terminal). */
  lines: EngineLine[];
  terminal: Terminal | null;
  depth: number;
  nodes: number;
}

export interface StoredAnalysis {
  engine: { name: string; version: string };
  budget: { nodesPerPosition: number; multiPv: number };
  startFen: string;
  movesUci: string[];
  /** movesUci.length + 1 positions, in game order. */
  positions: StoredPosition[];
  analysedAt: string;
}
