import { ne } from 'drizzle-orm';
import type { AppDeps } from '../../context.js';
import { connections } from '../../store/schema/index.js';
import { repeatEvery } from '../../timers.js';
import { syncConnection } from './sync.js';
import { changesAggregates, warmOwnerReads } from './warmReads.js';

/**
 * Background sync inside `serve`: every connection of every account, one at a time, every
 * config.syncIntervalMinutes (first run shortly after start). Sync is network I/O and short
 * per-batch transactions, so requests keep being served; a run still going when the next is due
 * is not doubled. `stop()` aborts the run in progress (its committed batches stay; the cursor resumes).
 */
export function startSyncScheduler(deps: AppDeps, opts: { firstRunDelayMs?: number; intervalMs?: number; onError?: (err: unknown) => void; onRunEnd?: () => void } = {}): { stop(): void } {
  const controller = new AbortController();
  let running = false;
  const intervalMs = opts.intervalMs ?? deps.config.syncIntervalMinutes * 60_000;

  const runOnce = async () => {
    if (running || controller.signal.aborted) return;
    running = true;
    try {
      // A connection left `syncing` by a killed process is picked up again like any other.
      // Demo connections are local data only (status `demo`, schemas/profile.ts).
      const all = deps.store.db.select().from(connections).where(ne(connections.status, 'demo')).all();
      const changed = new Set<string>();
      for (const c of all) {
        if (controller.signal.aborted) break;
        const s = await syncConnection(deps, c, { signal: controller.signal });
        if (changesAggregates(s)) changed.add(c.userId);
      }
      // The owners whose games changed get their first-asked aggregates computed now, not on their next read.
      for (const userId of changed) if (!controller.signal.aborted) await warmOwnerReads(deps, userId);
    } catch (err) {
      opts.onError?.(err);
    } finally {
      running = false;
      opts.onRunEnd?.();
    }
  };

  const timer = repeatEvery(intervalMs, () => void runOnce(), { firstDelayMs: opts.firstRunDelayMs ?? 10_000 });
  return {
    stop() {
      timer.stop();
      controller.abort();
    },
  };
}
