import type { Judgment } from './judgments.js';

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

/** The npm `stockfish` package's single-threaded WASM builds: the standard network, or a small one. */
export const ENGINE_BUILDS = ['full', 'lite'] as const;
export type EngineBuild = (typeof ENGINE_BUILDS)[number];
/** What ran a review: a bundled build, or a native binary. */
export const ENGINE_KINDS = [...ENGINE_BUILDS, 'native'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/**
 * The engine that made a review. `build` and `network` are absent on reviews stored before they were
 * recorded: those stay valid, and a review made with another build than today's default says which.
 */
export interface EngineIdentity {
  name: string;
  version: string;
  build?: EngineKind;
  /** The NNUE file the engine loaded (its EvalFile default), null when it names none. */
  network?: string | null;
}

/** The sources whose own review of a game the service stores in place of an engine run. */
export const REVIEW_SOURCES = ['lichess'] as const;
export type ReviewSource = (typeof REVIEW_SOURCES)[number];

/**
 * A review a source made (lichess's server analysis, imported at sync time; src/sources/lichess/review.ts):
 * its own judgments, one per ply (null: not judged), taken as published rather than recomputed, since which
 * moves lichess leaves unjudged (its engine's first choice) cannot be read from the evaluations alone.
 */
export interface SourceReview {
  name: ReviewSource;
  /** The source's id of the game the analysis belongs to. */
  gameId: string;
  judgments: Array<Judgment | null>;
}

export interface StoredAnalysis {
  engine: EngineIdentity;
  /** Present when the review is a source's own (no engine of ours ran); absent on engine reviews. */
  source?: SourceReview;
  budget: { nodesPerPosition: number; multiPv: number };
  startFen: string;
  movesUci: string[];
  /** movesUci.length + 1 positions, in game order. */
  positions: StoredPosition[];
  analysedAt: string;
}
