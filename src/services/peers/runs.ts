import type { AppDeps } from '../../context.js';
import { describeSourceFailure, isOwnFailure, type FetchPurpose } from '../../sources/failure.js';
import { SourceHttpError } from '../../sources/http.js';
import { explorerLichess, explorerMasters, type ExplorerRating, type ExplorerSpeed } from '../../sources/lichess/explorer.js';
import type { LichessOptions } from '../../sources/lichess/client.js';
import { perApp, SiteRuns, type SiteRun } from '../common/index.js';
import { politeClient } from '../prep/index.js';
import { LICHESS_POLITENESS } from '../sync/index.js';
import { cachedAnswers, fetchMonth, storeAnswer, type AnswerKind } from './answers.js';

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
  /** Keys start with the owner's id and a space. */
  private readonly outcomes = new Map<string, PeerOutcome>();
  /** The token lichess refused, per run key: it is not offered again until the owner gives another. */
  private readonly refused = new Map<string, string>();

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

  /** How the last finished run of this key ended (this process). */
  outcome(runKey: string): PeerOutcome | null {
    return this.outcomes.get(runKey) ?? null;
  }

  /** The owner's runs going (with progress) and how the last ones ended, as one string (a memo key part). */
  activeFor(userId: string): string {
    const mine = (k: string) => k.startsWith(`${userId} `);
    const going = [...this.runs.entries()].filter(([k]) => mine(k)).map(([k, r]) => `${k}:${r.state}:${r.progress.done}`);
    const ended = [...this.outcomes.entries()].filter(([k]) => mine(k)).map(([k, o]) => `${k}:${o.state}`);
    return [...going, ...ended].join('|');
  }

  refusedToken(runKey: string): string | null {
    return this.refused.get(runKey) ?? null;
  }

  /** Starts fetching `jobs` for the owner in the background (charged to the owner's `scout` bucket); joins a run of the same key. */
  start(userId: string, runKey: string, token: string, jobs: readonly PeerJob[]): void {
    if (this.runs.get(runKey) || !jobs.length) return;
    this.deps.limiter.take('scout', userId);
    this.runs.start(runKey, 'siteB', { done: 0, total: jobs.length, requests: 0 }, (run) => this.fetch(userId, runKey, token, jobs, run));
  }

  async settled(runKey: string): Promise<void> {
    await this.runs.settled(runKey);
  }

  stop(): void {
    this.runs.stop();
    runners.forget(this.deps.store, this);
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
        // Another run (another colour, a second reader) may have fetched this position meanwhile.
        if (!cachedAnswers(store, userId, job.kind, month, [job.key]).size) {
          const answer =
            job.kind.database === 'masters'
              ? await explorerMasters(client, job.fen)
              : await explorerLichess(client, { fen: job.fen, ratings: job.ratings, speeds: job.speeds });
          storeAnswer(store, userId, job.kind, month, job.key, answer, clock.now());
        }
        run.progress.done += 1;
      }
      this.outcomes.set(runKey, { state: 'ok', message: null });
      this.refused.delete(runKey);
    } catch (err) {
      if (run.signal.aborted) return;
      if (err instanceof SourceHttpError && err.status === 401) {
        this.outcomes.set(runKey, { state: 'token-refused', message: TOKEN_REFUSED });
        this.refused.set(runKey, token);
      }
      else {
        if (isOwnFailure(err)) console.error('[peers]', err);
        this.outcomes.set(runKey, { state: 'error', message: describeSourceFailure('siteB', err, PURPOSE) });
      }
    }
  }
}

const runners = perApp((deps) => new PeerRuns(deps));

/** The one PeerRuns of an app (MCP, REST and the dashboard share it). */
export const peerRuns = (deps: AppDeps): PeerRuns => runners.of(deps);

/** For tests: the app's runner with injected waits. */
export const setPeerRuns = (deps: AppDeps, runs: PeerRuns): void => runners.set(deps, runs);
