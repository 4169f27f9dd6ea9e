import { createAppDeps } from '../../src/app.js';
import type { AppDeps } from '../../src/context.js';
import { openStore, storeFile } from '../../src/store/db.js';
import type { TestApp } from './app.js';

/**
 * A second process on a test app's data folder (as `serve` and `mcp` over stdio share one): its own store
 * connection and its own app, so its own site turns and per-app runners, on the same clock. `close` ends it as the
 * process's exit would, the store connection last.
 */
export function secondProcess(app: TestApp): { deps: AppDeps; close(): Promise<void> } {
  const deps = createAppDeps(app.config, { clock: app.clock, store: openStore(storeFile(app.dir)) });
  return {
    deps,
    async close() {
      await deps.runtime.close();
      deps.limiter.close();
      deps.store.close();
    },
  };
}
