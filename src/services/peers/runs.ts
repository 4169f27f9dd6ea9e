import type { AppDeps } from '../../context.js';
import { describeSourceFailure, isOwnFailure, type FetchPurpose } from '../../sources/failure.js';
import { SourceHttpError } from '../../sources/http.js';
import { explorerLichess, explorerMasters, type ExplorerRating, type ExplorerSpeed } from '../../sources/lichess/explorer.js';
import type { LichessOptions } from '../../sources/lichess/client.js';
import { leaseHolder, perApp, SiteRuns, type SiteRun } from '../common/index.js';
import { politeClient } from '../prep/index.js';
import { LICHESS_POLITENESS } from '../sync/index.js';
import { cachedAnswers, fetchMonth, storeAnswer, type AnswerKind } from './answers.js';
import { claimRun, keepRun, runElsewhere, withExplorerLease } from './explorerLease.js';
import { clearFailure, lastFailure, recordFailure, tokenFingerprint, type ExplorerFailure } from './failures.js';

/** One answer to fetch: a position and which database. */
export interface PeerJob {
  key: string;
  fen: string;
  kind: AnswerKind;
  /** For `lichess` jobs: the filter as the explorer takes it. */
  ratings: readonly ExplorerRating[];
  speeds: readonly ExplorerSpeed[];
}

export interface PeerProgress {
  done: number;
  total: number;
  requests: number;
}

export interface PeerOutcome {
  state: 'ok' | 'token-refused' | 'error';
  message: string | null;
}

export interface PeerFetchOptions {
  /** Waits (the polite client's back-off): tests replace lichess's minute with nothing. */
  sleep?: (ms: number) => Promise<void>;
}

const PURPOSE: FetchPurpose = { subject: 'position', activity: 'opening-explorer fetch', afterwards: 'the positions fetched stay cached and the next read resumes after them' };

/** The one sentence for a refused token: what it means and how to give another. */
export const TOKEN_REFUSED =
  "lichess's opening explorer refused the lichess token (HTTP 401): it may have been revoked or have expired. Create a personal token (no scopes needed) at https://lichess.org/account/oauth/token and add it with `chess-footprint connect lichess USER --token …` or on the dashboard's settings page; the positions already fetched stay.";

/**
 * The process's opening-explorer fetches (issue 40). One request at a time at lichess: every run takes
 * lichess's site turn (common/siteTurns.ts), which the sync and the scout of lichess share, and asks its
 * positions one after another. Each answer is stored as it comes, so a run that stops (a refusal, a
 * shutdown) is resumed by the next read, which asks only for what is missing. A run already going for
 * the same owner, colour and filter is joined.
 */
export class PeerRuns {
  private readonly runs: SiteRuns<PeerProgress>;
  /** Runs of this process that completed (keys start with the owner's id and a space); failures are stored (failures.ts). */
  private readonly completed = new Set<string>();
  /** This runner's name on the store's explorer leases (explorerLease.ts), and how each run's claim is let go. */
  private readonly holder = leaseHolder();
  private readonly claims = new Map<string, () => void>();

  constructor(
    private readonly deps: AppDeps,
    private readonly options: PeerFetchOptions = {},
  ) {
    this.runs = new SiteRuns(deps.store);
  }

  running(runKey: string): { state: SiteRun<PeerProgress>['state']; progress: PeerProgress } | null {
    const r = this.runs.get(runKey);
    return r ? { state: r.state, progress: { ...r.progress } } : null;
  }

  /** How the last finished run of this key ended: a failure from the store (any process), or this process's success. */
  outcome(runKey: string): PeerOutcome | null {
    const failed = this.failure(runKey);
    if (failed) return { state: failed.state, message: failed.message };
    return this.completed.has(runKey) ? { state: 'ok', message: null } : null;
  }

  /** The stored failure of this key's last run, if it failed. */
  failure(runKey: string): ExplorerFailure | null {
    return lastFailure(this.deps.store, runKey);
  }

  /** The owner's runs going (with progress) and how the last ones ended, as one string (a memo key part). */
  activeFor(userId: string): string {
    const mine = (k: string) => k.startsWith(`${userId} `);
    const going = [...this.runs.entries()].filter(([k]) => mine(k)).map(([k, r]) => `${k}:${r.state}:${r.progress.done}`);
    return [...going, ...[...this.completed].filter(mine)].join('|');
  }

  /** Whether the explorer refused exactly this token on this key's last run (it is not offered again). */
  refusedToken(runKey: string, token: string): boolean {
    const f = this.failure(runKey);
    return f?.state === 'token-refused' && f.tokenFingerprint === tokenFingerprint(token);
  }

  /**
   * Starts fetching `jobs` for the owner in the background; joins a run of the same key. A new piece of work is
   * charged to the owner's `scout` bucket; a retry of a key whose last run failed (`charge: false`) is the same
   * work, already paid for (issue 44 item 7).
   */
  start(userId: string, runKey: string, token: string, jobs: readonly PeerJob[], charge = true): void {
    if (this.runs.get(runKey) || !jobs.length) return;
    const { store, limiter } = this.deps;
    // Another process runs this very key (serve and mcp over stdio on one store): its run is the one, not repeated or charged.
    if (runElsewhere(store, runKey, this.holder)) return;
    if (charge) limiter.take('scout', userId);
    if (!claimRun(store, runKey, this.holder)) {
      // Another process claimed it between the look and the claim: the unit goes back.
      if (charge) limiter.refund('scout', userId);
      return;
    }
    this.claims.set(runKey, keepRun(store, runKey, this.holder));
    this.completed.delete(runKey);
    this.runs.start(runKey, 'siteB', { done: 0, total: jobs.length, requests: 0 }, async (run) => {
      try {
        await this.fetch(userId, runKey, token, jobs, run);
      } finally {
        this.letGo(runKey);
      }
    });
  }

  /** Whether another process is running this key now (the view reports its fetch). */
  runningElsewhere(runKey: string): boolean {
    return !this.runs.get(runKey) && runElsewhere(this.deps.store, runKey, this.holder);
  }

  async settled(runKey: string): Promise<void> {
    await this.runs.settled(runKey);
  }

  stop(): void {
    // Another process may take them over at once: the claims go now, before the store may close.
    for (const runKey of [...this.claims.keys()]) this.letGo(runKey);
    this.runs.stop();
    runners.forget(this.deps.store, this);
  }

  private letGo(runKey: string): void {
    this.claims.get(runKey)?.();
    this.claims.delete(runKey);
  }

  private async fetch(userId: string, runKey: string, token: string, jobs: readonly PeerJob[], run: SiteRun<PeerProgress>): Promise<void> {
    const { store, clock, config } = this.deps;
    const client: LichessOptions = {
      // lichess asks for a full minute after a 429, whatever Retry-After says (https://lichess.org/api, "Rate limiting").
      ...politeClient(this.deps, config.sources.lichessExplorerUrl, { sleep: this.options.sleep, signal: run.signal }, LICHESS_POLITENESS, () => (run.progress.requests += 1)),
      token,
    };
    try {
      run.state = 'fetching';
      for (const job of jobs) {
        if (run.signal.aborted) return;
        const month = fetchMonth(clock.now());
        // Another run (another colour, a second reader, another process) may have fetched this position meanwhile.
        const cached = () => cachedAnswers(store, userId, job.kind, month, [job.key]).size > 0;
        if (!cached()) {
          // One request at a time per store, whichever process asks (explorerLease.ts); looked at again once the
          // lease is held, since the run that held it before may have stored this very position meanwhile.
          await withExplorerLease(store, this.holder, run.signal, async () => {
            if (cached()) return;
            const answer = await (job.kind.database === 'masters' ? explorerMasters(client, job.fen) : explorerLichess(client, { fen: job.fen, ratings: job.ratings, speeds: job.speeds }));
            storeAnswer(store, userId, job.kind, month, job.key, answer, clock.now());
          });
        }
        run.progress.done += 1;
      }
      clearFailure(store, runKey);
      this.completed.add(runKey);
    } catch (err) {
      if (run.signal.aborted) return;
      const refused = err instanceof SourceHttpError && err.status === 401;
      if (!refused && isOwnFailure(err)) console.error('[peers]', err);
      const message = refused ? TOKEN_REFUSED : describeSourceFailure('siteB', err, PURPOSE);
      const stored = recordFailure(store, userId, runKey, clock.now(), refused ? 'token-refused' : 'error', message, refused ? token : null);
      // The log says it too (the owner's id, never the token): a failure nobody reads is still seen.
      console.warn(`[peers] opening-explorer fetch failed (${runKey.trim()}; ${run.progress.done} of ${run.progress.total} positions done; failure ${stored.failures} in a row${refused ? '' : `, next try after ${stored.retryAt}`}): ${message}`);
    }
  }
}

const runners = perApp((deps) => new PeerRuns(deps));

/** The one PeerRuns of an app (MCP, REST and the dashboard share it). */
export const peerRuns = (deps: AppDeps): PeerRuns => runners.of(deps);

/** For tests: the app's runner with injected waits. */
export const setPeerRuns = (deps: AppDeps, runs: PeerRuns): void => runners.set(deps, runs);
