import { SECRET_KEY_FILE } from './store/secretKey.js';
import { protectStoredSecrets } from './store/storedSecrets.js';
import { markDemoConnections } from './demo/connections.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { AppDeps } from './context.js';
import { storeLimiter } from './limits/limiter.js';
import { createRuntime } from './runtime.js';
import { openStore, storeFile, type Store } from './store/db.js';
import { useServingBusyTimeout } from './store/busy.js';

/** Opens the store under config.dataDir (or the given store) and builds the process-wide parts. */
export function createAppDeps(config: Config, opts: { clock?: Clock; store?: Store; serving?: boolean } = {}): AppDeps {
  const clock = opts.clock ?? systemClock;
  const store = opts.store ?? openStore(storeFile(config.dataDir));
  const fixed = protectStoredSecrets(store);
  const demos = markDemoConnections(store);
  if (demos) console.error(`marked ${demos} demo connection(s) as demo: they hold made-up accounts and are never synced`);
  if (fixed.sourceTokens) console.error(`sealed ${fixed.sourceTokens} lichess token(s) stored in clear by an older version (key: ${SECRET_KEY_FILE} in the data folder)`);
  if (fixed.shareTokens) console.error(`replaced ${fixed.shareTokens} weekly-report share token(s) stored in clear by fingerprints; those reports' share links changed (get_weekly_report shows the new one)`);
  // Startup (migrations, the repairs above) may wait out another process's write; serving never does.
  if (opts.serving) useServingBusyTimeout(store);
  const limiter = storeLimiter(store, config, clock);
  const runtime = createRuntime({ store, config, clock });
  return { store, config, clock, limiter, runtime };
}

export async function closeAppDeps(deps: AppDeps): Promise<void> {
  await deps.runtime.close();
  deps.limiter.close();
  deps.store.close();
}
