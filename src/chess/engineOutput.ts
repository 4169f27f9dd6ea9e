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
  /** Searched again at the deeper budget (budget.deeper): this is that search's result. Absent: first pass only. */
  deeper?: true;
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
  /**
   * Judgment names the source published that are not one of ours (a name lichess added later), by ply index (0: the
   * first move): kept as published; `judgments` has null there, read as unknown (not a flagged move).
   */
  unknownJudgments?: Record<string, string>;
  /**
   * Each side's accuracy as the source published it (lichess: `players.{white,black}.analysis.accuracy`, a whole
   * number), shown in place of a recomputation; null or absent when the source gave none (older stored imports).
   */
  accuracy?: { white: number | null; black: number | null };
}

/**
 * How a review searched its positions. `position`: each from a clean hash (`ucinewgame`) and its
 * position key alone (positionKey below, FEN without history), so a position's result depends only on
 * the position, the engine and the budget: it can be reused across an owner's games and a review is
 * reproduced exactly from its recorded settings (single-threaded engine). Absent on older reviews,
 * which walked each game with the hash carried from one position to the next (still valid). `fishnet`: a review
 * worker's search (issue 36), in fishnet's order: the positions walked backwards in chunks of at most six with
 * the hash carried inside a chunk and one overlap position (fishnet src/queue.rs, src/ipc.rs), MultiPV 1.
 */
export const SEARCH_MODES = ['position', 'fishnet'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/**
 * What makes two positions the same for the engine (issue 25): placement, side to move, castling and
 * en-passant rights. The FEN searched is this key with a zero halfmove clock: a 100,000-node search
 * sees about 20 plies, so the fifty-move rule cannot enter it below a clock of 80; from there on the
 * clock is part of the key (and of the FEN searched), so such a position is only shared with itself.
 */
export function positionKey(fen: string): string {
  const [placement, side, castling, ep, halfmove] = fen.split(' ');
  const clock = Number(halfmove) || 0;
  return `${placement} ${side} ${castling} ${ep} ${clock >= 80 ? clock : 0} 1`;
}

/** The margins of the deeper look (src/chess/deeperLook.ts says what each selects). */
export interface DeeperMargins {
  /** Winning chances (−1..1) either side of 0.1 / 0.2 / 0.3. */
  judgment: number;
  /** Win% points below the `great` threshold from which a played first choice is searched again. */
  great: number;
  /** Centipawns (side to move, either sign) from which a mate may hide; 0 turns it off. */
  mateCp: number;
  /** Search again the two positions of a ply judged Blunder on the first pass. */
  moments: boolean;
}

/**
 * The deeper look a review made (issue 25 item 2, src/chess/deeperLook.ts): the positions the first pass could
 * not settle by these margins were searched again, alone from a clean hash, at this many nodes. Absent on reviews
 * made without one (first pass only; still valid, but their `great` is not backed by a deeper search).
 */
export interface DeeperBudget {
  nodesPerPosition: number;
  margins: DeeperMargins;
}

/**
 * Who made a review on a review worker (issue 36): the worker key's name, and the engine as the worker reported
 * it (its User-Agent and `stockfish.flavor`): untrusted words, recorded as said, read by no rule.
 */
export interface WorkerOrigin {
  key: string;
  /** The key's id (since issue 44): its reviews are found again when it is revoked, whatever its name became. */
  keyId?: string;
  userAgent: string;
  flavor: string;
}

export interface StoredAnalysis {
  engine: EngineIdentity;
  /** Present when a review worker searched the positions (`budget.search` is then `fishnet`). */
  worker?: WorkerOrigin;
  /** Present when the review is a source's own (no engine of ours ran); absent on engine reviews. */
  source?: SourceReview;
  budget: { nodesPerPosition: number; multiPv: number; search?: SearchMode; deeper?: DeeperBudget };
  startFen: string;
  movesUci: string[];
  /** movesUci.length + 1 positions, in game order. */
  positions: StoredPosition[];
  analysedAt: string;
}
