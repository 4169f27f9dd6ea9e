import { cpScaleOf, scalePositions } from '../chess/calibration.js';
import { DEEPER_MARGINS, unsettledPositions, type DeeperMargins } from '../chess/deeperLook.js';
import { positionKey, type EngineIdentity, type StoredAnalysis, type StoredPosition } from '../chess/engineOutput.js';
import { gamePositions } from '../chess/positions.js';
import { EngineFailure, UciEngine, type EngineSpec } from './uciEngine.js';

export interface PoolOptions extends EngineSpec {
  /** Engine processes: each takes a whole game when several wait, or they split one game that is alone. */
  size: number;
  nodesPerPosition: number;
  /**
   * The deeper look (issue 25 item 2): after the first pass, the positions it cannot settle by these margins
   * (src/chess/deeperLook.ts) are searched again at `nodesPerPosition` nodes. Absent: first pass only.
   */
  deeper?: { nodesPerPosition: number; margins: DeeperMargins };
  /** How long one search may take before the engine counts as hung (default: searchTimeoutMs(nodes)). */
  searchTimeoutMs?: number;
}

/** The deeper look's default budget, chosen with the first pass's by `npm run bench -- fidelity` (README). */
export const DEFAULT_DEEP_NODES = 100_000;

/** The deeper look at `nodes` nodes with the default margins; none at 0 (first pass only). */
export function deeperLook(nodes: number): PoolOptions['deeper'] {
  return nodes > 0 ? { nodesPerPosition: nodes, margins: { ...DEEPER_MARGINS } } : undefined;
}

/** A position's search result, as reused from an earlier search of the same position. */
export type SearchedPosition = Pick<StoredPosition, 'lines' | 'depth' | 'nodes'>;

/**
 * Search results by key, reused across reviews. The caller decides whose reviews share one (the queue
 * keeps one per owner: reuse never crosses owners); the pool adds its engine and budget to each key.
 */
export interface PositionMemo {
  get(key: string): SearchedPosition | undefined;
  set(key: string, value: SearchedPosition): void;
}

export interface AnalyseOptions {
  /** At most this many engine processes (default: every idle one). */
  engines?: number;
  /** Results of positions already searched with this engine and budget, and where new ones go. */
  memo?: PositionMemo;
  /**
   * Aborting stops the review at once: its engines are killed mid-search (they start afresh for the next
   * review), nothing more is searched, and analyse rejects with ReviewAborted. The queue aborts a job
   * whose lease another process took over (services/review/queue.ts), so one job never has two engines.
   */
  signal?: AbortSignal;
}

/** The rejection of a review whose AnalyseOptions.signal was aborted. */
export class ReviewAborted extends Error {
  constructor() {
    super('the review was stopped');
    this.name = 'ReviewAborted';
  }
}

/** What reviews a move sequence: the engine pool in production; tests may pass their own. */
export interface Analyser {
  /**
   * Reviews one move sequence. `engines` caps how many engine processes it may use (default: every
   * idle one); the queue passes 1 when other jobs wait, so each engine takes a whole game.
   */
  analyse(startFen: string, movesUci: readonly string[], now: () => string, opts?: AnalyseOptions): Promise<StoredAnalysis>;
  close(): Promise<void>;
  /** How many games it can review at once (default 1). */
  readonly capacity?: number;
  /** How many more games it could start now without waiting (default: capacity). */
  idle?(): number;
}

/** Generous: the slowest machine we expect searches 100k nodes/s, plus start-up. */
export function searchTimeoutMs(nodes: number): number {
  return 30_000 + (nodes / 100_000) * 1000 * 4;
}

/**
 * A pool of UCI engine processes, several games at once. Each review takes idle engines (at most
 * `opts.engines`, at least one: it waits for one when all are busy) and gives them back when it ends.
 * A game is split into contiguous chunks, one per engine it holds. Every position is searched alone:
 * `ucinewgame` (a clean hash) and its position key as the FEN, no game history (SearchMode
 * `position`), so its result depends on the position, engine and budget only, whichever game, chunk
 * or order it came in: a position already in the review's memo is not searched again. A crashed or
 * silent engine is restarted and the position retried once; a second failure fails that review with
 * the reason, and restarts only the engines it held: other games running on the other engines carry on.
 */
export class EnginePool implements Analyser {
  private engines: Array<UciEngine | null>;
  /** Engine slots no review holds. */
  private free: number[];
  /** Reviews waiting for an idle engine, first come first served. */
  private waiting: Array<() => void> = [];
  private closed = false;

  constructor(private readonly opts: PoolOptions) {
    this.engines = Array.from({ length: Math.max(1, opts.size) }, () => null);
    this.free = this.engines.map((_, i) => i);
  }

  get capacity(): number {
    return this.engines.length;
  }

  idle(): number {
    return this.free.length;
  }

  /** Takes up to `want` idle slots (at least one), waiting for one when none is idle. */
  private async take(want: number): Promise<number[]> {
    while (this.free.length === 0) {
      if (this.closed) throw new EngineFailure('the engine pool is closed');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    return this.free.splice(0, Math.max(1, Math.min(want, this.free.length)));
  }

  private give(slots: number[]): void {
    this.free.push(...slots);
    this.free.sort((a, b) => a - b);
    for (const wake of this.waiting.splice(0)) wake();
  }

  private async engineAt(i: number): Promise<UciEngine> {
    if (this.closed) throw new EngineFailure('the engine pool is closed');
    const e = this.engines[i];
    if (e && e.alive) return e;
    const started = await UciEngine.start(this.opts);
    if (this.closed) {
      // Closed while this one was starting: close() could not reach it.
      started.kill();
      throw new EngineFailure('the engine pool is closed');
    }
    this.engines[i] = started;
    return started;
  }

  private async restart(i: number): Promise<UciEngine> {
    this.engines[i]?.kill();
    this.engines[i] = null;
    return this.engineAt(i);
  }

  /** Positions searched and positions taken from a memo since the pool started. For benchmarks. */
  readonly counts = { searched: 0, reused: 0, deeper: 0 };

  /** What a memo key carries beside the position: the engine and the budget (same build and budget, same result). */
  private memoPrefix(nodes: number): string {
    const o = this.opts;
    return `${o.path ?? o.build}|t${o.path ? o.threads : 1}|h${o.hashMb}|n${nodes}|pv${o.multiPv}|`;
  }

  /**
   * Build and network go with every review, so one made by another build says which it was. Every engine of the
   * pool runs the same spec: any started one answers, also for a review whose positions all came from the memo.
   */
  private identity(slots: number[]): EngineIdentity {
    const first = [...slots.map((i) => this.engines[i]), ...this.engines].find((e) => e);
    return first ? { ...first.id, build: first.kind, network: first.network } : { name: 'unknown', version: 'unknown' };
  }

  async analyse(startFen: string, movesUci: readonly string[], now: () => string, opts: AnalyseOptions = {}): Promise<StoredAnalysis> {
    const signal = opts.signal;
    if (signal?.aborted) throw new ReviewAborted();
    const slots = await this.take(opts.engines ?? this.engines.length);
    // Killing the review's engines ends any search in flight now, rather than at its node budget.
    const stopEngines = () => {
      for (const i of slots) {
        this.engines[i]?.kill();
        this.engines[i] = null;
      }
    };
    signal?.addEventListener('abort', stopEngines, { once: true });
    try {
      if (signal?.aborted) throw new ReviewAborted();
      const positions = gamePositions(startFen, movesUci);
      const stored: StoredPosition[] = new Array(positions.length);
      const searchable = positions.filter((p) => !p.terminal);
      for (const p of positions.filter((q) => q.terminal)) {
        stored[p.index] = { index: p.index, fen: p.fen, lines: [], terminal: p.terminal, depth: 0, nodes: 0 };
      }
      // First pass at the fixed budget, then the deeper look at the positions it cannot settle.
      let failure = await this.searchAll(slots, searchable, stored, this.opts.nodesPerPosition, opts.memo, false, signal);
      const deeper = this.opts.deeper;
      if (!failure && deeper) {
        // The margins are about lichess's thresholds, so they are read on lichess's scale (src/chess/calibration.ts).
        const onScale = scalePositions(stored, cpScaleOf(this.identity(slots)));
        const again = new Set(unsettledPositions(onScale, movesUci, deeper.margins));
        failure = await this.searchAll(slots, searchable.filter((p) => again.has(p.index)), stored, deeper.nodesPerPosition, opts.memo, true, signal);
      }
      if (signal?.aborted) throw new ReviewAborted();
      if (failure) {
        // The failed review's engines start afresh for the next job: none keeps this game's state.
        // Engines held by other reviews are not touched.
        for (const i of slots) {
          this.engines[i]?.kill();
          this.engines[i] = null;
        }
        throw failure.reason;
      }
      return {
        engine: this.identity(slots),
        budget: {
          nodesPerPosition: this.opts.nodesPerPosition,
          multiPv: this.opts.multiPv,
          search: 'position',
          ...(deeper ? { deeper: { nodesPerPosition: deeper.nodesPerPosition, margins: { ...deeper.margins } } } : {}),
        },
        startFen,
        movesUci: [...movesUci],
        positions: stored,
        analysedAt: now(),
      };
    } finally {
      signal?.removeEventListener('abort', stopEngines);
      this.give(slots);
    }
  }

  /**
   * Searches `list` at `nodes` nodes over the review's engines, one contiguous chunk each, into `stored`
   * (marked `deeper` on the deeper look's pass). Returns the first failure, after every chunk settled.
   */
  private async searchAll(
    slots: number[],
    list: ReadonlyArray<{ index: number; fen: string }>,
    stored: StoredPosition[],
    nodes: number,
    memo: PositionMemo | undefined,
    deeper: boolean,
    signal: AbortSignal | undefined,
  ): Promise<PromiseRejectedResult | undefined> {
    const chunks = Math.min(slots.length, Math.max(1, list.length));
    const per = Math.ceil(list.length / chunks);
    const timeoutMs = this.opts.searchTimeoutMs ?? searchTimeoutMs(nodes);
    const prefix = this.memoPrefix(nodes);
    const mark = deeper ? { deeper: true as const } : {};
    // One failed chunk stops the others at their next position; every chunk settles before this
    // review ends, so no engine is still searching for it when the next job starts.
    let failed = false;
    const settled = await Promise.allSettled(
      Array.from({ length: chunks }, async (_, c) => {
        const mine = list.slice(c * per, (c + 1) * per);
        if (mine.length === 0) return;
        const slot = slots[c];
        if (signal?.aborted) return;
        let engine = await this.engineAt(slot);
        for (const p of mine) {
          if (failed || signal?.aborted) return;
          const key = positionKey(p.fen);
          const known = memo?.get(prefix + key);
          if (known) {
            this.counts.reused += 1;
            stored[p.index] = { index: p.index, fen: p.fen, lines: known.lines, terminal: null, depth: known.depth, nodes: known.nodes, ...mark };
            continue;
          }
          const position = `fen ${key}`;
          let result;
          try {
            await engine.newGame();
            result = await engine.search(position, nodes, timeoutMs);
          } catch (first) {
            // A stopped review's engine was killed on purpose: no restart, no retry.
            if (signal?.aborted) return;
            engine = await this.restart(slot);
            try {
              await engine.newGame();
              result = await engine.search(position, nodes, timeoutMs);
            } catch (second) {
              const reason = second instanceof Error ? second.message : String(second);
              const before = first instanceof Error ? first.message : String(first);
              throw new EngineFailure(`position ${p.index} failed twice (${before}; then ${reason})`);
            }
          }
          if (result.lines.length === 0) {
            throw new EngineFailure(`position ${p.index}: the engine returned no line (bestmove ${result.bestMove ?? '(none)'})`);
          }
          this.counts.searched += 1;
          if (deeper) this.counts.deeper += 1;
          memo?.set(prefix + key, { lines: result.lines, depth: result.depth, nodes: result.nodes });
          stored[p.index] = { index: p.index, fen: p.fen, lines: result.lines, terminal: null, depth: result.depth, nodes: result.nodes, ...mark };
        }
      }).map((chunk) =>
        chunk.catch((err: unknown) => {
          failed = true;
          throw err;
        }),
      ),
    );
    return settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  }

  /** CPU seconds used by the live engine processes (null when unknown). For benchmarks. */
  cpuSeconds(): number | null {
    const each = this.engines.filter((e): e is UciEngine => e !== null).map((e) => e.cpuSeconds());
    return each.some((c) => c === null) ? null : each.reduce<number>((a, c) => a + (c ?? 0), 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.all(this.engines.map((e) => e?.quit()));
    this.engines = this.engines.map(() => null);
  }
}
