import type { EngineScore } from '../chess/engineOutput.js';
import { fishnetChunks, fishnetNodeLimit } from '../chess/fishnetChunks.js';
import { gamePositions } from '../chess/positions.js';
import type { InfoLine } from './uciParser.js';
import { EngineFailure, type InfoCollector, type UciEngine } from './uciEngine.js';

/**
 * A game searched the way lichess's fishnet client searches it (facts read from lichess-org/fishnet,
 * GPL, no code taken: src/queue.rs `IncomingBatch::from_acquired`, src/ipc.rs, src/stockfish.rs, src/api.rs):
 * - positions walked backwards, last position first;
 * - cut into chunks of at most 6 (`Chunk::MAX_POSITIONS`): 5 positions of the game each, led by one overlap
 *   position whose result is thrown away (the previous chunk's last, or the game's last position repeated for the
 *   first chunk, "to offset that it is analysed with completely fresh hash"); a skipped position is not searched,
 *   but when it comes right before a searched one it is searched as that one's warm-up;
 * - `ucinewgame` once per chunk, so the hash is carried from position to position inside a chunk only;
 * - each position sent with the game's history (`position fen START moves …`), MultiPV 1, `go nodes N`.
 * Chunks share nothing, so several engines may take a game's chunks at once with the same result.
 */

/** What fishnet reports for one searched position (its `AnalysisPart::Best`). */
export interface FishnetPosition {
  index: number;
  /** The principal variation in UCI; empty in a position with no move (mate or stalemate on the board). */
  pv: string[];
  /** Side to move's point of view, as UCI reports it. */
  score: EngineScore;
  depth: number;
  nodes: number;
  /** Milliseconds, as the engine reported them. */
  time: number;
  nps: number | null;
}

/**
 * Reads one search as fishnet does (src/stockfish.rs): the score and PV of MultiPV 1 at the highest depth that
 * gave an exact one (bounds never count), the last exact depth, and the last nodes, time and nps reported.
 * A finished mate or stalemate reports `info depth 0 score mate 0` (`cp 0`) with no PV: that is its result.
 */
class FishnetReading implements InfoCollector<Omit<FishnetPosition, 'index'> | null> {
  private score: EngineScore | null = null;
  private scoreDepth = -1;
  private pv: string[] = [];
  private pvDepth = -1;
  private depth = 0;
  private nodes = 0;
  private time = 0;
  private nps: number | null = null;

  push(info: InfoLine): void {
    if (info.nodes !== null) this.nodes = info.nodes;
    if (info.time !== null) this.time = info.time;
    if (info.nps !== null) this.nps = info.nps;
    if (info.multiPv !== 1 || info.bound !== null || info.depth === null) return;
    this.depth = info.depth;
    if (info.score && info.depth >= this.scoreDepth) {
      this.score = info.score;
      this.scoreDepth = info.depth;
    }
    if (info.pv.length > 0 && info.depth >= this.pvDepth) {
      this.pv = info.pv;
      this.pvDepth = info.depth;
    }
  }

  finish(): Omit<FishnetPosition, 'index'> | null {
    if (!this.score) return null;
    return { pv: this.pv, score: this.score, depth: this.depth, nodes: this.nodes, time: this.time, nps: this.nps };
  }
}

/** A job that cannot be searched as given (a start position or a move that is not legal): the server's fault, not the engine's. */
export class InvalidJob extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidJob';
  }
}

export interface FishnetJob {
  startFen: string;
  moves: readonly string[];
  /** The job's node limit (fishnet's `nodes` for this engine); each search gets fishnetNodeLimit(limit). */
  nodeLimit: number;
  /** Positions the server already knows (`skipPositions`): not searched, reported as skipped. */
  skip: readonly number[];
}

export interface FishnetSearchOptions {
  /** After each recorded position (in the order searched). */
  onPosition?: (p: FishnetPosition) => void;
  /** How long one search may take before the engine counts as hung. */
  searchTimeoutMs: number;
  /** Stops before the next chunk or position; the search then throws EngineFailure('stopped'). */
  signal?: AbortSignal;
}

/**
 * Searches a job the fishnet way on `engines` (each takes the next chunk when free). Returns one entry per
 * position in game order: the position's result, or null where it was skipped. Throws InvalidJob on an illegal
 * start position or move (before any search), EngineFailure on a search that ends without a score or an engine
 * failure; the caller decides
 * what to do with the job and restarts dead engines.
 */
export async function fishnetSearch(engines: readonly UciEngine[], job: FishnetJob, opts: FishnetSearchOptions): Promise<Array<FishnetPosition | null>> {
  if (engines.length === 0) throw new EngineFailure('no engine to search with');
  let count: number;
  try {
    count = gamePositions(job.startFen, job.moves).length;
  } catch (err) {
    throw new InvalidJob(err instanceof Error ? err.message : String(err));
  }
  const skip = new Set(job.skip.filter((i) => Number.isInteger(i) && i >= 0 && i < count));
  const chunks = fishnetChunks(count, skip);
  const nodes = fishnetNodeLimit(job.nodeLimit);
  const results: Array<FishnetPosition | null> = new Array(count).fill(null);
  let next = 0;
  let failed = false;
  const stopped = () => failed || opts.signal?.aborted === true;
  // Every engine's loop settles before this returns, so none is still searching this job afterwards.
  const settled = await Promise.allSettled(
    engines.map(async (engine) => {
      while (next < chunks.length && !stopped()) {
        const chunk = chunks[next++];
        await engine.newGame();
        for (const s of chunk) {
          if (stopped()) break;
          const moves = job.moves.slice(0, s.index);
          const position = `fen ${job.startFen}${moves.length ? ` moves ${moves.join(' ')}` : ''}`;
          const read = await engine.searchWith(position, nodes, opts.searchTimeoutMs, new FishnetReading());
          if (!read) throw new EngineFailure(`position ${s.index}: the engine gave no score`);
          if (!s.record) continue;
          const p = { index: s.index, ...read };
          results[s.index] = p;
          opts.onPosition?.(p);
        }
      }
    }).map((loop) =>
      loop.catch((err: unknown) => {
        failed = true;
        throw err;
      }),
    ),
  );
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  if (opts.signal?.aborted) throw new EngineFailure('stopped');
  return results;
}
