import type { Clock } from './clock.js';
import type { Config } from './config.js';
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
  /** Stops background work (engine processes, timers) so a process can exit cleanly. */
  close(): Promise<void>;
}

export interface RuntimeDeps {
  store: Store;
  config: Config;
  clock: Clock;
}

export function createRuntime(deps: RuntimeDeps): Runtime {
  return {
    chessResults: new ChessResultsClient({
      baseUrl: deps.config.sources.chessresultsUrl,
      userAgent: deps.config.sources.userAgent,
      clock: deps.clock,
    }),
    close: async () => {},
  };
}
