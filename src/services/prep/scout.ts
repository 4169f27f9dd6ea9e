import type { z } from 'zod';
import type { ScoutStatus } from '../../../schemas/prep.js';
import type { AppDeps } from '../../context.js';
import { leaseHolder, perApp, SiteRuns, type SiteRun } from '../common/index.js';
import { describeSourceFailure, isOwnFailure, type FetchPurpose } from '../../sources/failure.js';
import { fetchScout, windowStart, type FetchOptions, type FetchProgress } from './fetch.js';
import {
  DEFAULT_MAX_GAMES,
  DEFAULT_MONTHS,
  ensureScout,
  findScout,
  gameCount,
  removeScout,
  setScoutStatus,
  storeScoutGames,
  type ScoutProviderId,
  type ScoutRow,
} from './scoutStore.js';
import { claimScout, fetchedElsewhere, keepScout, SCOUT_ELSEWHERE } from './scoutLease.js';

type Status = z.infer<typeof ScoutStatus>;

interface LastFetch {
  fetched: number;
  stored: number;
  requests: number;
}

/**
 * What a scout whose process ended mid-fetch says (issue 44 item 7): `serve` stopping, or an MCP client over stdio
 * disconnecting, ends the fetch with its process; the row says so, and the next read of the player resumes it
 * (readPlayer, prep/index.ts), without a second charge to the scout bucket.
 */
export const SCOUT_INTERRUPTED = 'The fetch stopped before it finished when the process running it ended (a server stopped, or an MCP client disconnected); what was stored stays, and reading the player again resumes it.';

/** What a failed fetch says (the sync's wording, src/sources/failure.ts). */
const SCOUT_PURPOSE: FetchPurpose = { subject: 'player', activity: 'scout', afterwards: 'what was stored stays' };

/**
 * The process's scout fetches. One request at a time per site: a fetch waits for the site's turn, which
 * the sync of that site shares (common/siteTurns.ts), and each fetch is sequential. Each fetch is charged to
 * the owner's `scout` bucket when it is started; a fetch already running for the owner's scout of that
 * player is joined, not started (or charged) again, whichever process runs it (scoutLease.ts).
 */
export class ScoutRuns {
  /** By scout row id. */
  private readonly runs: SiteRuns<FetchProgress | null>;
  private readonly last = new Map<string, LastFetch>();
  /** This runner's name on the store's scout leases (scoutLease.ts), and how each claim it holds is let go. */
  private readonly holder = leaseHolder();
  private readonly claims = new Map<string, () => void>();

  constructor(
    private readonly deps: AppDeps,
    private readonly fetchOptions: Pick<FetchOptions, 'sleep'> = {},
  ) {
    this.runs = new SiteRuns(deps.store);
  }

  /** The owner's scout state; null when the owner never scouted the player (another owner's scouts included). */
  status(userId: string, provider: ScoutProviderId, username: string): Status | null {
    const row = findScout(this.deps.store, userId, provider, username);
    return row ? this.statusOf(row) : null;
  }

  statusOf(row: ScoutRow): Status {
    const run = this.runs.get(row.id);
    // Another process's fetch of it, running now: reported as fetching, its progress that process's own.
    const elsewhere = !run && fetchedElsewhere(this.deps.store, row.id, this.holder);
    return {
      provider: row.provider,
      username: row.username,
      state: run ? run.state : elsewhere ? 'fetching' : row.status,
      message: elsewhere ? SCOUT_ELSEWHERE : row.statusMessage,
      fetchedAt: row.fetchedAt,
      games: gameCount(this.deps.store, row.id),
      bounds: { maxGames: row.maxGames, months: row.months },
      progress: run?.progress ? { ...run.progress } : null,
      lastFetch: this.last.get(row.id) ?? null,
    };
  }

  /**
   * Starts (or joins) a fetch of the player's recent public games for the owner, in the background; the
   * first state comes back at once. 429 when the owner's scout bucket is empty; nothing is stored then.
   */
  start(userId: string, provider: ScoutProviderId, username: string, bounds: { maxGames?: number; months?: number } = {}, charge = true): Status {
    const existing = findScout(this.deps.store, userId, provider, username);
    if (existing && this.runs.get(existing.id)) return this.statusOf(existing);
    // A demo store's made-up player is never fetched: the name could be a real stranger's account.
    if (existing?.status === 'demo') return this.statusOf(existing);
    const { store } = this.deps;
    // Another process is fetching it (serve and mcp over stdio on one store): that fetch is reported, not repeated or charged.
    if (existing && fetchedElsewhere(store, existing.id, this.holder)) return this.statusOf(existing);
    // `charge: false`: resuming a fetch that was paid for when it started (an interrupted first fetch).
    if (charge) this.deps.limiter.take('scout', userId);
    const row = ensureScout(store, this.deps.clock, userId, provider, username, {
      maxGames: bounds.maxGames ?? existing?.maxGames ?? DEFAULT_MAX_GAMES,
      months: bounds.months ?? existing?.months ?? DEFAULT_MONTHS,
    });
    if (!claimScout(store, row.id, this.holder)) {
      // Another process claimed it between the look and the claim: its fetch is the one, and the unit goes back.
      if (charge) this.deps.limiter.refund('scout', userId);
      return this.statusOf(row);
    }
    // Resumed: the interruption is over.
    if (row.statusMessage === SCOUT_INTERRUPTED) setScoutStatus(store, row.id, { statusMessage: null });
    // Held while the fetch waits for the site's turn and while it runs, however it ends.
    this.claims.set(row.id, keepScout(store, row.id, this.holder));
    // The site's turn is shared with the sync (one request at a time per site, whoever asked).
    this.runs.start(row.id, provider, null, async (run) => {
      try {
        await this.fetch(row.id, run);
      } finally {
        this.letGo(row.id);
      }
    });
    return this.statusOf(findById(this.deps, row.id) ?? row);
  }

  /** Resolves when the owner's running fetch of the player (if any) has finished. */
  async settled(userId: string, provider: ScoutProviderId, username: string): Promise<void> {
    const row = findScout(this.deps.store, userId, provider, username);
    if (row) await this.runs.settled(row.id);
  }

  /**
   * Forgets the owner's scout of the player (its stored games with it) and cancels its fetch, if one runs: the fetch
   * stops at its next request or chunk and stores nothing (issue 37, item 7). False when the owner has none.
   */
  forget(userId: string, provider: ScoutProviderId, username: string): boolean {
    const row = findScout(this.deps.store, userId, provider, username);
    if (!row) return false;
    this.runs.get(row.id)?.abort.abort();
    return removeScout(this.deps.store, userId, provider, username);
  }

  /**
   * Stops fetches in progress (server shutdown, a stdio client gone); what they stored stays. Each interrupted row
   * says so before its fetch is aborted (the store may close right after), so no scout is left looking as if it
   * were still fetching, or never asked for.
   */
  stop(): void {
    for (const [scoutId] of this.runs.entries()) {
      try {
        setScoutStatus(this.deps.store, scoutId, { statusMessage: SCOUT_INTERRUPTED });
      } catch {
        // The store is busy or already closed: the row keeps its state, and a read resumes a never-fetched scout.
      }
    }
    // Another process may resume them at once: their claims are let go now, before the store may close.
    for (const scoutId of [...this.claims.keys()]) this.letGo(scoutId);
    this.runs.stop();
    // A later app on the same store gets a fresh runner.
    runners.forget(this.deps.store, this);
  }

  private letGo(scoutId: string): void {
    this.claims.get(scoutId)?.();
    this.claims.delete(scoutId);
  }

  private async fetch(scoutId: string, run: SiteRun<FetchProgress | null>): Promise<void> {
    const { store, clock } = this.deps;
    // Read again: the row may have been removed while queued.
    const scout = findById(this.deps, scoutId);
    const { signal } = run;
    try {
      if (!scout || signal.aborted) return;
      run.state = 'fetching';
      const got = await fetchScout(this.deps, scout, {
        ...this.fetchOptions,
        signal,
        onProgress: (p) => (run.progress = p),
      });
      // Forgotten while the last answer came in (here, or by another process): nothing to store it under.
      if (signal.aborted || !findById(this.deps, scoutId)) return;
      const oldestKept = windowStart(clock.now(), scout.months).toISOString();
      const stored = storeScoutGames(store, scout, got.rows, got.cursor, oldestKept);
      this.last.set(scout.id, { fetched: got.fetched, stored, requests: got.requests });
      setScoutStatus(store, scout.id, { status: 'ok', statusMessage: null, fetchedAt: clock.now().toISOString() });
    } catch (err) {
      // Stopped by a shutdown or forgotten: not the source's fault; the row keeps its last state, or is gone.
      if (!scout || signal.aborted || !findById(this.deps, scoutId)) return;
      if (isOwnFailure(err)) console.error('[scout]', err);
      setScoutStatus(store, scout.id, { status: 'error', statusMessage: describeSourceFailure(scout.provider, err, SCOUT_PURPOSE) });
    }
  }
}

function findById(deps: AppDeps, id: string): ScoutRow | null {
  const row = deps.store.sqlite.prepare('SELECT user_id AS userId, provider, username FROM scouts WHERE id = ?').get(id) as
    | { userId: string; provider: ScoutProviderId; username: string }
    | undefined;
  return row ? findScout(deps.store, row.userId, row.provider, row.username) : null;
}

const runners = perApp((deps) => new ScoutRuns(deps));

/** The one ScoutRuns of an app (REST, MCP and the dashboard share it, so one source sees one fetch at a time). */
export const scoutRuns = (deps: AppDeps): ScoutRuns => runners.of(deps);

/** For tests: the app's runner with injected waits (a 429 minute becomes nothing). */
export const setScoutRuns = (deps: AppDeps, runs: ScoutRuns): void => runners.set(deps, runs);
