import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { preparedOnce } from '../../store/prepared.js';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { StoredAnalysis } from '../../chess/engineOutput.js';
import type { Analyser } from '../../engine/pool.js';
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/db.js';
import { isStoreBusy } from '../../store/busy.js';
import { reviewJobs } from '../../store/schema/index.js';
import { OwnerPositionMemos } from './positionMemo.js';
import { CONNECTED_KEY_SQL, WORKER_CONNECTED_MS } from './workerLeases.js';
import { analysisRow, engineOutput, ownerReview, refreshDerivations, saveReview } from './records.js';

export type ReviewJob = typeof reviewJobs.$inferSelect;

export interface EnqueueRequest {
  userId: string;
  subjectKind: 'game' | 'study';
  subjectId: string;
  movesKey: string;
  startFen: string;
  movesUci: readonly string[];
  /** Higher runs first: API requests 0 (the default), bulk and automatic reviews below (REVIEW_PRIORITY). */
  priority?: number;
}

/**
 * Who goes first when several jobs wait: an agent's request never waits behind background work; the
 * owner's own `review` run (they are watching its progress bar) goes before `serve`'s daily auto reviews.
 * Auto jobs are also told apart by this priority (services/review/auto.ts counts them per day).
 */
export const REVIEW_PRIORITY = { request: 0, bulk: -1, auto: -2 } as const;

/** A running job's process writes its heartbeat this often; a heartbeat this old frees the job. */
export const HEARTBEAT_MS = 5_000;
export const STALE_LEASE_MS = 30_000;
/** A job claimed this many times without finishing (its process died each time) fails instead of looping. */
export const MAX_ATTEMPTS = 3;
/** The error an abandoned job carries: the owner reads it in get_game and the dashboard's queue, with the next step. */
export const abandonedMessage = (attempts: number) =>
  `abandoned: the review process stopped ${attempts} times before finishing (an engine crash, or the machine running out of memory); ` +
  'ask for the review again (request_game_review, or `review` from the command line) to retry it, or leave the game unreviewed';
/** What a failed job's owner is told to do next, after its reason (the abandoned message carries its own). */
export function failedJobNote(error: string | null): string {
  const reason = error ?? 'the review failed';
  return reason.startsWith('abandoned:') ? reason : `${reason}; ask for the review again (request_game_review, or \`review\` from the command line) to retry it`;
}
/** A background write that met another process's lock tries again after this long (src/store/busy.ts). */
export const BUSY_RETRY_MS = 200;
/** …for this long at most before giving up (a lock held a minute is a fault, not a write in progress). */
export const BUSY_GIVE_UP_MS = 60_000;

/**
 * The persistent review queue (table review_jobs): queued → running → complete | failed.
 * Jobs are rows, so a restart loses nothing. A running job carries a lease: the process that took
 * it (`leaseOwner`) and a heartbeat it renews while the engine works. Any process on the store
 * (`serve`, `mcp` beside it, the `review` CLI) takes only queued jobs or running jobs whose
 * heartbeat went stale (their process died), and on shutdown puts back only its own. Leases use
 * real time whatever the injected clock says: they measure this machine's processes, not the domain.
 * A job is worked by one engine at a time, even across a SIGSTOP (issue 37 item 3): each heartbeat is a
 * conditional renewal, and a holder whose renewal finds the job (or the worker lease) taken over stops
 * its engine search at once; completion and failure are conditional on still holding the job, so a
 * holder that lost it stores nothing. Completion stores the owner's review (engine output with its
 * derivation) and their games' accuracy, in one transaction.
 *
 * Engines per machine, not per process: one process at a time works the queue. It holds the worker
 * lease (table review_worker_lease) while it has work, renews it with its jobs' heartbeats, and
 * releases it when it runs out of jobs or stops; other processes (`mcp` beside `serve`, a `review`
 * run) queue jobs and wait for theirs to finish, and take the lease over only when it is free, stale,
 * or its process on this machine has exited. So the engines running are at most one process's
 * configured count, whichever processes share the store.
 *
 * No write here waits on another process's lock on the event loop: a serving process's store gives
 * up after 50 ms (src/store/busy.ts); a claim that meets a lock finds nothing this time and the loop
 * polls again, heartbeats skip a beat, and a completion tries again shortly (nothing is lost).
 */
export class ReviewQueue {
  /** This process's lease name. */
  readonly leaseOwner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private running = false;
  private stopping = false;
  private loops: Array<Promise<void>> = [];
  /** Idle worker loops sleeping until a job is enqueued or an engine is freed. */
  private wakers = new Set<() => void>();
  private listeners = new Set<() => void>();
  /** Positions this process searched, one memo per owner (never shared across owners). */
  private readonly memos = new OwnerPositionMemos();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly analyser: () => Analyser,
    private readonly now: () => number = Date.now,
    /**
     * Review workers (issue 36): `localEngines` 0 runs no worker loop here (`serve --engines 0`: reviews wait for
     * review workers); while a worker of the store is connected, a queued job is left to workers for `workerWaitMs`
     * after it was made before a local engine takes it (the quick profile, for jobs no worker took).
     */
    private readonly opts: { localEngines?: number; workerWaitMs?: number } = {},
  ) {}

  job(id: string): ReviewJob | null {
    return this.store.db.select().from(reviewJobs).where(eq(reviewJobs.id, id)).get() ?? null;
  }

  /** A queued or running job of this user for the subject or for the same moves; null when none. */
  activeJob(userId: string, subjectKind: 'game' | 'study', subjectId: string, movesKey: string): ReviewJob | null {
    return activeJobOf(this.store, userId, subjectKind, subjectId, movesKey);
  }

  /** The latest job of this user for the subject, whatever its state. */
  latestJob(userId: string, subjectKind: 'game' | 'study', subjectId: string): ReviewJob | null {
    return (
      this.store.db
        .select()
        .from(reviewJobs)
        .where(and(eq(reviewJobs.userId, userId), eq(reviewJobs.subjectKind, subjectKind), eq(reviewJobs.subjectId, subjectId)))
        .orderBy(desc(reviewJobs.createdAt))
        .get() ?? null
    );
  }

  /** Adds a queued job. Runs inside the caller's transaction when there is one (better-sqlite3 nests as savepoints). */
  enqueue(req: EnqueueRequest): ReviewJob {
    const row = insertReviewJob(this.store, this.clock, req);
    this.wakeAll();
    return row;
  }

  /**
   * The owner's jobs waiting ahead of (and including) the given one, in the order workers take them.
   * Only the owner's own: other owners' jobs are theirs to know (a count of them would tell one owner
   * how busy the others are).
   */
  position(job: ReviewJob): number {
    const queued = this.store.db
      .select({ id: reviewJobs.id })
      .from(reviewJobs)
      .where(and(eq(reviewJobs.userId, job.userId), inArray(reviewJobs.status, ['queued', 'running'])))
      .orderBy(desc(reviewJobs.priority), asc(reviewJobs.createdAt))
      .all();
    const i = queued.findIndex((q) => q.id === job.id);
    return i < 0 ? 0 : i + 1;
  }

  /** Calls `fn` whenever a job finishes (pollers use it to answer as soon as their job is done). */
  onFinished(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  /**
   * Takes the next job, atomically (several processes may share a store): the highest priority,
   * then the oldest (insertion order among jobs queued in the same millisecond, so a bulk run's
   * newest-first order holds), among queued jobs and running jobs whose lease went stale.
   */
  claim(): ReviewJob | null {
    try {
      return this.claimNext();
    } catch (err) {
      // Another process holds the write lock: nothing was taken; the worker polls again.
      if (isStoreBusy(err)) return null;
      throw err;
    }
  }

  private claimNext(): ReviewJob | null {
    const now = this.now();
    const staleBefore = this.iso(now - STALE_LEASE_MS);
    const lease = preparedOnce(this.store, workerLeaseStatements);
    return this.store.sqlite
      .transaction(() => {
        const holder = lease.read.get() as { owner: string; beat: string } | undefined;
        // Another live process works the queue: its engines are the machine's; this one's stay off.
        if (holder && holder.owner !== this.leaseOwner && holder.beat >= staleBefore && !leaseProcessGone(holder.owner)) return null;
        this.freeDeadLocalLeases();
        // Workers first: a job younger than the wait is left to its owner's connected workers, if the owner has any
        // (another owner's workers neither hold it back nor learn of it: issue 44 item 4). A freed running job is not held back.
        const wait = this.opts.workerWaitMs ?? 0;
        const madeBefore = wait > 0 ? new Date(this.clock.now().getTime() - wait).toISOString() : null;
        const since = new Date(now - WORKER_CONNECTED_MS).toISOString();
        const next = this.store.sqlite
          .prepare(
            `SELECT id FROM review_jobs j
              WHERE (status = 'queued' AND (? IS NULL OR created_at <= ? OR NOT EXISTS (SELECT 1 FROM worker_keys k WHERE k.user_id = j.user_id AND ${CONNECTED_KEY_SQL})))
                 OR (status = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < ?))
              ORDER BY priority DESC, created_at ASC, rowid ASC LIMIT 1`,
          )
          .get(madeBefore, madeBefore, since, staleBefore) as { id: string } | undefined;
        if (!next) {
          // Out of work: free the queue for another process, unless a job of this one still runs.
          if (holder?.owner === this.leaseOwner && !lease.mineRunning.get(this.leaseOwner)) lease.release.run(this.leaseOwner);
          return null;
        }
        lease.take.run(this.leaseOwner, this.iso(now));
        const job = this.job(next.id)!;
        if (job.attempts >= MAX_ATTEMPTS) {
          this.store.db
            .update(reviewJobs)
            .set({ status: 'failed', error: abandonedMessage(job.attempts), finishedAt: this.clock.now().toISOString(), leaseOwner: null })
            .where(eq(reviewJobs.id, job.id))
            .run();
          return { ...job, status: 'failed' as const };
        }
        const set = { status: 'running' as const, startedAt: this.clock.now().toISOString(), attempts: job.attempts + 1, leaseOwner: this.leaseOwner, heartbeatAt: this.iso(now) };
        this.store.db.update(reviewJobs).set(set).where(eq(reviewJobs.id, job.id)).run();
        return { ...job, ...set };
      })
      .immediate();
  }

  /**
   * A lease held by a process of this machine that no longer exists (killed with -9, crashed) is
   * stale at once rather than after STALE_LEASE_MS: clearing its heartbeat lets the claim below take
   * it in priority order. A live process, or a lease from another host, waits for its heartbeat.
   */
  private freeDeadLocalLeases(): void {
    const { held, free } = preparedOnce(this.store, leaseStatements);
    for (const h of held.all() as Array<{ id: string; owner: string }>) if (leaseProcessGone(h.owner)) free.run(h.id);
  }

  /**
   * Renews this process's lease on a job, and its worker lease, in one transaction; false when either
   * renewal found it taken over (paused past STALE_LEASE_MS, by SIGSTOP or a suspended machine, while
   * another process claimed it). Losing the worker lease loses the job too: the engines running are the
   * new holder's to count, so the job goes back to the queue (if it is still this process's) for it to
   * take. A beat that meets another process's lock is skipped (the next comes in HEARTBEAT_MS, well
   * within STALE_LEASE_MS).
   */
  private heartbeat(jobId: string): boolean {
    try {
      const beat = this.iso(this.now());
      const lease = preparedOnce(this.store, workerLeaseStatements);
      return this.store.sqlite
        .transaction(() => {
          const worker = lease.renew.run(beat, this.leaseOwner).changes === 1;
          const job = worker && lease.renewJob.run(beat, jobId, this.leaseOwner).changes === 1;
          if (!worker) lease.requeueJob.run(jobId, this.leaseOwner);
          return job;
        })
        .immediate();
    } catch (err) {
      if (isStoreBusy(err)) return true;
      throw err;
    }
  }

  /**
   * Runs a background write, trying again while another process holds the lock (each try waits at
   * most the store's busy timeout: 50 ms in a serving process), so a finished review is never lost
   * to a lock and the event loop never waits seconds.
   */
  private async written(write: () => void): Promise<void> {
    const giveUpAt = Date.now() + BUSY_GIVE_UP_MS;
    for (;;) {
      try {
        return write();
      } catch (err) {
        if (!isStoreBusy(err) || Date.now() > giveUpAt) throw err;
      }
      await new Promise((r) => setTimeout(r, BUSY_RETRY_MS));
    }
  }

  private wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }

  /** Queued jobs nobody has taken yet. */
  private waitingJobs(): number {
    return (this.store.sqlite.prepare(`SELECT count(*) AS n FROM review_jobs WHERE status = 'queued'`).get() as { n: number }).n;
  }

  /**
   * Runs one job to completion or failure. Returns false when the queue was empty or no engine is idle
   * (a job is claimed only when an engine can start on it, so another process may take it meanwhile).
   * With other jobs waiting the job gets one engine (each engine takes a whole game: no splitting
   * overhead, every core busy); alone, it gets every idle engine and is split across them.
   */
  async runOnce(): Promise<boolean> {
    const analyser = this.analyser();
    if ((analyser.idle?.() ?? 1) <= 0) return false;
    const job = this.claim();
    if (!job) return false;
    if (job.status === 'failed') {
      this.notify();
      return true;
    }
    // A beat that finds the job taken over stops this job's engine search at once (issue 37 item 3).
    const lost = new AbortController();
    const beat = setInterval(() => {
      if (!lost.signal.aborted && !this.heartbeat(job.id)) lost.abort();
    }, HEARTBEAT_MS);
    beat.unref?.();
    const mine = and(eq(reviewJobs.id, job.id), eq(reviewJobs.status, 'running'), eq(reviewJobs.leaseOwner, this.leaseOwner));
    try {
      // Stored engine output is reused only when this owner already holds a review of these moves
      // (a duplicate job): reviews are per owner (records.ts), so another owner's review is never a
      // shortcut, and a review of moves someone else reviewed costs the asker the same engine run, the
      // same wait and the same answer as any fresh line (issue 30 item 3, issue 37 item 1; docs/engine.md, "The review queue").
      const analysis =
        engineOutput(this.store, job.userId, job.movesKey) ??
        (await analyser.analyse(job.startFen, job.movesUci ? job.movesUci.split(' ') : [], () => this.clock.now().toISOString(), {
          engines: this.waitingJobs() > 0 ? 1 : undefined,
          memo: this.memos.for(job.userId),
          signal: lost.signal,
        }));
      // The heartbeat keeps beating while a completion waits out another process's lock. A completion
      // that finds the job no longer this process's stores nothing: its new holder stores its own.
      await this.written(() => this.complete(job, analysis));
    } catch (err) {
      // Taken over: the job is its new holder's; nothing here is written for it.
      if (lost.signal.aborted) return true;
      if (this.stopping) {
        // Shutting down killed the engines mid-job: the job is not at fault; the next start resumes it.
        await this.written(() => this.store.db.update(reviewJobs).set({ status: 'queued', startedAt: null, leaseOwner: null, heartbeatAt: null }).where(mine).run());
        return true;
      }
      const reason = err instanceof Error ? err.message : String(err);
      await this.written(() =>
        this.store.db
          .update(reviewJobs)
          .set({ status: 'failed', error: reason.slice(0, 500), finishedAt: this.clock.now().toISOString(), leaseOwner: null })
          .where(mine)
          .run(),
      );
    } finally {
      clearInterval(beat);
    }
    this.notify();
    return true;
  }

  private notify(): void {
    for (const fn of this.listeners) fn();
    // A finished job freed its engines: idle loops may take the next job now.
    this.wakeAll();
  }

  /**
   * Stores a finished job's review, only while this process still holds the job (`WHERE id AND
   * lease_owner AND status = 'running'`, first, in the same transaction as every other write): a
   * holder that lost the job stores nothing. True when stored.
   */
  private complete(job: ReviewJob, analysis: StoredAnalysis): boolean {
    const now = this.clock.now().toISOString();
    // Derived before the transaction: the write lock is held only for the writes.
    const row = analysisRow(job.userId, job.movesKey, analysis, now);
    return this.store.sqlite
      .transaction(() => {
        const held = this.store.db
          .update(reviewJobs)
          .set({ status: 'complete', error: null, finishedAt: now, leaseOwner: null })
          .where(and(eq(reviewJobs.id, job.id), eq(reviewJobs.leaseOwner, this.leaseOwner), eq(reviewJobs.status, 'running')))
          .run();
        if (held.changes !== 1) return false;
        saveReview(this.store, row);
        copyReviewAccuracy(this.store, job.userId, job.movesKey);
        return true;
      })
      .immediate();
  }

  /**
   * Starts the worker loops (idempotent): one per game the analyser can review at once (one per engine
   * for the pool), so several queued jobs run side by side. `serve` calls it; tests and one-shot
   * commands need not. Creating the analyser starts no engine process: engines start with a job.
   */
  startWorkers(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    const local = this.opts.localEngines ?? 1;
    // Older stores: current derivations, from what is stored (no engine), without holding up the start.
    void refreshDerivations(this.store, () => this.stopping)
      .catch((err) => console.error('[reviews] derivation refresh failed', err));
    this.loops = local > 0 ? Array.from({ length: this.workers }, () => this.workerLoop()) : [];
  }

  private async workerLoop(): Promise<void> {
    while (!this.stopping) {
      const didWork = await this.runOnce().catch((err) => {
        console.error('[reviews] worker error', err);
        return false;
      });
      if (didWork || this.stopping) continue;
      // Idle: sleep until a job is enqueued here or a job ends, or poll now and then for jobs another process added.
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.wakers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, 2000);
        this.wakers.add(wake);
      });
    }
  }

  /** Stops the loops, then puts back in the queue only the jobs this process holds (never another's). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeAll();
    await Promise.all(this.loops);
    this.loops = [];
    this.running = false;
    // A caller that closed the store first has nothing left to put back through it.
    if (!this.store.sqlite.open) return;
    const lease = preparedOnce(this.store, workerLeaseStatements);
    await this.written(() =>
      this.store.sqlite
        .transaction(() => {
          this.store.db
            .update(reviewJobs)
            .set({ status: 'queued', startedAt: null, leaseOwner: null, heartbeatAt: null })
            .where(and(eq(reviewJobs.status, 'running'), eq(reviewJobs.leaseOwner, this.leaseOwner)))
            .run();
          lease.release.run(this.leaseOwner);
        })
        .immediate(),
    );
  }

  /** How many jobs this process can run at once: one per engine. */
  get workers(): number {
    return Math.max(1, this.analyser().capacity ?? 1);
  }

  get workersRunning(): boolean {
    return this.running;
  }
}

/**
 * Copies the owner's accuracy from their finished review onto their games with the same moves,
 * by the colour each game records. Bumps `version`: every change to a game row does.
 */
export function copyReviewAccuracy(store: Store, userId: string, movesKey: string): void {
  const review = ownerReview(store, userId, movesKey);
  if (!review) return;
  const { accuracyWhite: w, accuracyBlack: b } = review.derivation;
  store.sqlite
    .prepare(
      `UPDATE games SET review_accuracy = CASE colour WHEN 'white' THEN ? ELSE ? END, version = version + 1
       WHERE user_id = ? AND moves_key = ? AND review_accuracy IS NOT (CASE colour WHEN 'white' THEN ? ELSE ? END)`,
    )
    .run(w, b, userId, movesKey, w, b);
}

/**
 * Inserts a queued review job (the demo seeder and the bulk CLI queue reviews without a request).
 * The store keeps one active job per subject and per owner's moves (unique partial indexes, migration
 * 0010): when one is already queued or running, nothing is inserted and that job is returned.
 */
export function insertReviewJob(store: Store, clock: Clock, req: EnqueueRequest): ReviewJob {
  const row: ReviewJob = {
    id: randomUUID(),
    userId: req.userId,
    subjectKind: req.subjectKind,
    subjectId: req.subjectId,
    movesKey: req.movesKey,
    startFen: req.startFen,
    movesUci: req.movesUci.join(' '),
    status: 'queued',
    error: null,
    attempts: 0,
    createdAt: clock.now().toISOString(),
    startedAt: null,
    finishedAt: null,
    leaseOwner: null,
    heartbeatAt: null,
    priority: req.priority ?? REVIEW_PRIORITY.request,
    progressDone: null,
  };
  if (store.db.insert(reviewJobs).values(row).onConflictDoNothing().run().changes > 0) return row;
  const active = activeJobOf(store, req.userId, req.subjectKind, req.subjectId, row.movesKey);
  if (!active) throw new Error('a review job conflicted with an active job that is gone');
  return active;
}

/** The owner's queued or running job for the subject or for the same moves (at most one each: 0010). */
export function activeJobOf(store: Store, userId: string, subjectKind: 'game' | 'study', subjectId: string, moves: string): ReviewJob | null {
  const rows = store.db
    .select()
    .from(reviewJobs)
    .where(and(eq(reviewJobs.userId, userId), inArray(reviewJobs.status, ['queued', 'running'])))
    .orderBy(asc(reviewJobs.createdAt))
    .all();
  return rows.find((r) => (r.subjectKind === subjectKind && r.subjectId === subjectId) || r.movesKey === moves) ?? null;
}

// The worker lease (one process works the queue), read and written inside claims: prepared once per store.
const workerLeaseStatements = (_db: Store['db'], sqlite: Store['sqlite']) => ({
  read: sqlite.prepare('SELECT lease_owner AS owner, heartbeat_at AS beat FROM review_worker_lease WHERE id = 1'),
  take: sqlite.prepare(
    'INSERT INTO review_worker_lease (id, lease_owner, heartbeat_at) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET lease_owner = excluded.lease_owner, heartbeat_at = excluded.heartbeat_at',
  ),
  renew: sqlite.prepare('UPDATE review_worker_lease SET heartbeat_at = ? WHERE id = 1 AND lease_owner = ?'),
  renewJob: sqlite.prepare(`UPDATE review_jobs SET heartbeat_at = ? WHERE id = ? AND lease_owner = ? AND status = 'running'`),
  requeueJob: sqlite.prepare(`UPDATE review_jobs SET status = 'queued', started_at = NULL, lease_owner = NULL, heartbeat_at = NULL WHERE id = ? AND lease_owner = ? AND status = 'running'`),
  release: sqlite.prepare('DELETE FROM review_worker_lease WHERE lease_owner = ?'),
  mineRunning: sqlite.prepare(`SELECT 1 FROM review_jobs WHERE status = 'running' AND lease_owner = ? LIMIT 1`),
});

// Run on every claim (each worker polls every 2 s when idle): prepared once per store.
const leaseStatements = (_db: Store['db'], sqlite: Store['sqlite']) => ({
  held: sqlite.prepare(`SELECT id, lease_owner AS owner FROM review_jobs WHERE status = 'running' AND heartbeat_at IS NOT NULL AND lease_owner IS NOT NULL`),
  free: sqlite.prepare('UPDATE review_jobs SET heartbeat_at = NULL WHERE id = ?'),
});

/** Whether a lease's process (`host:pid:nonce`) is of this machine and has exited (kill(pid, 0) fails with ESRCH). */
export function leaseProcessGone(owner: string): boolean {
  const [host, pidText] = owner.split(':');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
