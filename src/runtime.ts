import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Store } from './store/db.js';

/**
 * Long-lived, process-wide parts that handlers reach through `ctx.runtime`
 * (the review queue and engine pool, the chess-results client with its courtesy cap and cache, …).
 * Each capability adds its member here and builds it in `createRuntime`.
 */
export interface Runtime {
  /** Stops background work (engine processes, timers) so a process can exit cleanly. */
  close(): Promise<void>;
}

export interface RuntimeDeps {
  store: Store;
  config: Config;
  clock: Clock;
}

export function createRuntime(_deps: RuntimeDeps): Runtime {
  return {
    close: async () => {},
  };
}
