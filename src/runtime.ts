import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { deeperLook, EnginePool, type Analyser } from './engine/pool.js';
// By its file, not the review's door: the queue is process-wide and below the context (src/context.ts
// types ctx.runtime with it), while the door also opens the request-level reads that take a context.
import { ReviewQueue } from './services/review/queue.js';
import { ChessResultsClient } from './sources/chessresults/client.js';
import type { Store } from './store/db.js';

/**
 * Long-lived, process-wide parts that handlers reach through `ctx.runtime`
 * (the review queue and engine pool, the chess-results client with its courtesy cap and cache, …).
 * Each capability adds its member here and builds it in `createRuntime`.
 */
export interface Runtime {
  /** chess-results.com reader: the one outbound courtesy cap (1 request/s, one in flight) and a 60 s page cache. */
  chessResults: ChessResultsClient;
  /** The persistent review queue. Its workers (and engine processes) start only with `reviews.startWorkers()`. */
  reviews: ReviewQueue;
  /** Stops background work (engine processes, timers) so a process can exit cleanly. */
  close(): Promise<void>;
}

export interface RuntimeDeps {
  store: Store;
  config: Config;
  clock: Clock;
  /** Replaces the engine pool (tests, benchmarks). */
  analyser?: Analyser;
}

export function createRuntime(deps: RuntimeDeps): Runtime {
  let analyser: Analyser | null = deps.analyser ?? null;
  // Engine processes start on the first job, never merely because a runtime exists.
  const getAnalyser = (): Analyser => {
    analyser ??= new EnginePool({
      path: deps.config.engine.path,
      build: deps.config.engine.build,
      threads: deps.config.engine.threads,
      hashMb: deps.config.engine.hashMb,
      multiPv: deps.config.engine.multiPv,
      // `--engines 0` runs no loop (the queue's localEngines); one-shot commands (`review`) still get one engine.
      size: Math.max(1, deps.config.engine.workers),
      nodesPerPosition: deps.config.engine.nodesPerPosition,
      deeper: deeperLook(deps.config.engine.deepNodes),
    });
    return analyser;
  };
  const reviews = new ReviewQueue(deps.store, deps.clock, getAnalyser, Date.now, {
    localEngines: deps.config.engine.workers,
    workerWaitMs: deps.config.reviewWorkers.localWaitSeconds * 1000,
  });
  return {
    chessResults: new ChessResultsClient({
      baseUrl: deps.config.sources.chessresultsUrl,
      userAgent: deps.config.sources.userAgent,
      clock: deps.clock,
      polite: { connectTimeoutMs: deps.config.sources.connectTimeoutMs, idleTimeoutMs: deps.config.sources.idleTimeoutMs },
    }),
    reviews,
    close: async () => {
      const stopping = reviews.stop();
      // Quitting the engines ends a search in progress; its job goes back to the queue.
      await analyser?.close();
      await stopping;
    },
  };
}
