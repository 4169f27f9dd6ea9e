import type { z } from 'zod';
import type { SyncRun } from '../../../schemas/settings.js';
import type { AppDeps } from '../../context.js';
import { ApiError } from '../../errors.js';
import { syncUser } from '../../services/sync/index.js';
import { changesAggregates, warmOwnerReads } from '../../services/sync/index.js';
import type { SourceProvider } from '../../services/sync/index.js';

type Run = z.infer<typeof SyncRun>;

/**
 * "Sync now" runs started from the dashboard, one per account at a time, kept in memory: the
 * dashboard polls the run for progress; what a sync stores lives in the store like any other sync.
 */
export class SyncRuns {
  private readonly runs = new Map<string, Run>();
  private readonly controller = new AbortController();

  constructor(private readonly deps: AppDeps) {}

  get(userId: string): Run {
    return this.runs.get(userId) ?? { state: 'idle', startedAt: null, finishedAt: null, progress: null, results: [] };
  }

  /** Starts a run in the background and returns its first state; 409 when one is still going. */
  start(userId: string, provider?: SourceProvider): Run {
    if (this.get(userId).state === 'running') throw new ApiError(409, 'a sync is already running for this account; poll GET /api/v1/settings/sync');
    const run: Run = { state: 'running', startedAt: this.deps.clock.now().toISOString(), finishedAt: null, progress: null, results: [] };
    this.runs.set(userId, run);
    void syncUser(this.deps, userId, {
      provider,
      signal: this.controller.signal,
      onProgress: (p) => {
        run.progress = { provider: p.provider, phase: p.phase, fetched: p.fetched, stored: p.stored, done: p.done, total: p.total };
      },
    })
      .then(async (summaries) => {
        run.results = summaries.map((s) => ({ provider: s.provider, ok: s.ok, error: s.error, fetched: s.fetched, stored: s.stored }));
        // As the scheduler does: the aggregates the owner will look at next are computed now.
        if (summaries.some(changesAggregates) && !this.controller.signal.aborted) await warmOwnerReads(this.deps, userId);
      })
      .catch((err: unknown) => {
        console.error('[sync now]', err);
      })
      .finally(() => {
        run.state = 'done';
        run.finishedAt = this.deps.clock.now().toISOString();
      });
    return { ...run };
  }

  /** Stops runs in progress (server shutdown); their committed batches stay. */
  stop(): void {
    this.controller.abort();
  }
}
