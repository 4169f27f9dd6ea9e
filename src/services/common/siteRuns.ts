import { inSiteTurn } from './siteTurns.js';

/** One background fetch: its state and progress as a reader sees them, and how it is stopped. */
export interface SiteRun<P> {
  state: 'queued' | 'fetching';
  progress: P;
  /** Resolves when the work has ended (and the run has left the list). */
  done: Promise<void>;
  /** Aborts this run alone (a scout forgotten mid-fetch). */
  abort: AbortController;
  /** Aborted by `abort` or by `SiteRuns.stop`: the signal the work fetches with. */
  signal: AbortSignal;
}

/**
 * The background fetches of one kind in an app (the scout's, the peers' explorer runs), by key: each waits for its
 * site's turn (siteTurns.ts) and leaves the list when its work ends, however it ends. What a run stores and how a
 * failure is recorded stay with its owner; the bookkeeping every such runner needs is here once.
 */
export class SiteRuns<P> {
  private readonly runs = new Map<string, SiteRun<P>>();
  private readonly stopped = new AbortController();

  /** `app`: the app's store, the key of its site turns. */
  constructor(private readonly app: object) {}

  get(key: string): SiteRun<P> | undefined {
    return this.runs.get(key);
  }

  entries(): IterableIterator<[string, SiteRun<P>]> {
    return this.runs.entries();
  }

  /** Queues `work` under `key` for `site`'s turn; the caller has checked that no run of that key is going. */
  start(key: string, site: string, progress: P, work: (run: SiteRun<P>) => Promise<void>): SiteRun<P> {
    const abort = new AbortController();
    const run: SiteRun<P> = { state: 'queued', progress, done: Promise.resolve(), abort, signal: AbortSignal.any([this.stopped.signal, abort.signal]) };
    this.runs.set(key, run);
    run.done = inSiteTurn(this.app, site, async () => {
      try {
        await work(run);
      } finally {
        this.runs.delete(key);
      }
    });
    return run;
  }

  /** Resolves when the run of `key` (if any) has ended. */
  async settled(key: string): Promise<void> {
    await this.runs.get(key)?.done;
  }

  /** Aborts every run (server shutdown). */
  stop(): void {
    this.stopped.abort();
  }
}
