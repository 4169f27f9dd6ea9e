import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { AppDeps } from './context.js';
import { storeLimiter } from './limits/limiter.js';
import { createRuntime } from './runtime.js';
import { openStore, storeFile, type Store } from './store/db.js';

/** Opens the store under config.dataDir (or the given store) and builds the process-wide parts. */
export function createAppDeps(config: Config, opts: { clock?: Clock; store?: Store } = {}): AppDeps {
  const clock = opts.clock ?? systemClock;
  const store = opts.store ?? openStore(storeFile(config.dataDir));
  const limiter = storeLimiter(store, config, clock);
  const runtime = createRuntime({ store, config, clock });
  return { store, config, clock, limiter, runtime };
}

export async function closeAppDeps(deps: AppDeps): Promise<void> {
  await deps.runtime.close();
  deps.store.close();
}
