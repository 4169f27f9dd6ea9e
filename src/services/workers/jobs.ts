import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { AcquireResponse, StatusResponse } from '../../../schemas/fishnet.js';
import { FISHNET_CHUNK_POSITIONS } from '../../chess/fishnetChunks.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { tryWithoutWaiting } from '../../store/busy.js';
import type { Store } from '../../store/db.js';
import { reviewJobs, workerKeys, type WorkerKeyHolder } from '../../store/schema/index.js';
import { REVIEW_PRIORITY, STALE_LEASE_MS, storeWorkerReview, WORKER_LEASE_PREFIX, type ReviewJob } from '../review/index.js';
import type { Judgement, JudgementInput } from './judgement.js';
import { keepOpeningLines, knownOpeningLines } from './openingLines.js';
import { judgeOffThread, warmJudgeThread } from './offThread.js';

/**
 * Review jobs handed to review workers over lichess's fishnet protocol (issue 36). The jobs are the
 * review queue's own rows (table review_jobs, services/review/queue.ts): a worker takes what a local
 * engine would, by the same order, and a job is never in two hands.
 *
 * A job handed to a key is leased: `lease_owner` is `fishnet:<key id>:<work id>` (the work id is
 * fresh at every hand-out, so an old holder's id never matches a re-leased job) and the lease runs
 * for the timeout per position × positions, extended by each progress report. The queue frees a
 * running job whose heartbeat is STALE_LEASE_MS old; a worker's lease is written as the heartbeat
 * that goes stale exactly when the lease runs out, so one rule frees both kinds of job and either
 * kind of taker (a worker, a local engine) may take it again. Leases use real time (`now`), as the
 * queue's do.
 *
 * The work carries nothing about the owner: the start position, the moves and an opaque id.
 */
export type WorkerSettings = Config['reviewWorkers'];

export interface WorkerCall {
  store: Store;
  clock: Clock;
  settings: WorkerSettings;
  /** The worker key the request came with, verified (src/auth/workerKeys.ts) before any call here. */
  holder: WorkerKeyHolder;
  userAgent: string;
  now?: () => number;
}

const leaseOf = (holder: WorkerKeyHolder, workId: string) => `${WORKER_LEASE_PREFIX}${holder.id}:${workId}`;

/** The heartbeat that goes stale (queue.ts: older than STALE_LEASE_MS) exactly when a lease of `ms` from `now` runs out. */
const heartbeatFor = (now: number, ms: number) => new Date(now + ms - STALE_LEASE_MS).toISOString();
const positionsOf = (job: Pick<ReviewJob, 'movesUci'>) => (job.movesUci ? job.movesUci.split(' ').length : 0) + 1;

/**
 * Records the key's contact (the dashboard's "last contact", /health's connected workers). Best effort, like a
 * token's last use: when another process holds the write lock the stamp waits for the next request, and the
 * request goes on without first waiting out the lock on the event loop (src/store/busy.ts tryWithoutWaiting).
 */
export function touchKey(call: WorkerCall): void {
  tryWithoutWaiting(call.store, () =>
    call.store.db
      .update(workerKeys)
      .set({ lastContactAt: new Date((call.now ?? Date.now)()).toISOString(), lastUserAgent: call.userAgent.slice(0, 200) })
      .where(eq(workerKeys.id, call.holder.id))
      .run(),
  );
}

/**
 * Leases the key owner's next job to the key and answers its work, or null when none waits. `slow`:
 * the fishnet client asks for no user-requested analysis, here the owner's own requests (priority
 * `request`): it gets bulk and automatic reviews only.
 */
export function acquireWork(call: WorkerCall, slow: boolean): AcquireResponse | null {
  const now = (call.now ?? Date.now)();
  const staleBefore = new Date(now - STALE_LEASE_MS).toISOString();
  const { store, settings } = call;
  const work = store.sqlite
    .transaction((): AcquireResponse | null => {
      const next = store.sqlite
        .prepare(
          `SELECT id FROM review_jobs
            WHERE user_id = ? AND (? = 0 OR priority < ?)
              AND (status = 'queued' OR (status = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < ?)))
            ORDER BY priority DESC, created_at ASC, rowid ASC LIMIT 1`,
        )
        .get(call.holder.userId, slow ? 1 : 0, REVIEW_PRIORITY.request, staleBefore) as { id: string } | undefined;
      if (!next) return null;
      const job = store.db.select().from(reviewJobs).where(eq(reviewJobs.id, next.id)).get()!;
      // 16 random bytes, base64url: 22 characters, within fishnet's 24 (api.rs BatchId).
      const workId = randomBytes(16).toString('base64url');
      const positions = positionsOf(job);
      store.db
        .update(reviewJobs)
        .set({
          status: 'running',
          // Real time, as the lease: a progress report measures the worker's pace from it.
          startedAt: new Date(now).toISOString(),
          leaseOwner: leaseOf(call.holder, workId),
          heartbeatAt: heartbeatFor(now, settings.timeoutMs * positions),
          progressDone: 0,
        })
        .where(eq(reviewJobs.id, job.id))
        .run();
      const n = settings.nodes;
      const known = knownOpeningLines(store, job.userId, n, job.startFen, job.movesUci ? job.movesUci.split(' ') : []);
      return {
        work: { type: 'analysis', id: workId, nodes: { sf16: n, sf17_1: n, sf18: n, classical: n }, timeout: settings.timeoutMs },
        game_id: workId,
        position: job.startFen,
        variant: 'standard',
        moves: job.movesUci,
        // Only workers' own answers at this budget (openingLines.ts), never the local engines' quick searches,
        // which would mix another budget and search order into lichess's review.
        skipPositions: [...known.keys()],
      };
    })
    .immediate();
  if (work) warmJudgeThread();
  return work;
}

/** The job this key holds under this work id (its lease still its own, run out or not, until another takes it). */
function heldJob(call: WorkerCall, workId: string): ReviewJob | null {
  if (!/^[A-Za-z0-9_-]{1,24}$/.test(workId)) return null;
  return (
    call.store.db
      .select()
      .from(reviewJobs)
      .where(sql`${reviewJobs.status} = 'running' AND ${reviewJobs.leaseOwner} = ${leaseOf(call.holder, workId)} AND ${reviewJobs.userId} = ${call.holder.userId}`)
      .get() ?? null
  );
}

/**
 * Puts a held job back in the queue; false when the key does not hold it. A fishnet client aborts its jobs when it
 * shuts down (fishnet doc/protocol.md), so the machine is shown as gone at once (leaveWork) until it asks again.
 */
export function abortWork(call: WorkerCall, workId: string): boolean {
  const released = releaseJob(call.store, call.holder, workId);
  if (released) leaveWork(call);
  return released;
}

/**
 * The machine says it is stopping: not connected from now until its next request (workerLeases.ts connectedWorkers).
 * Stamped with its last contact, which this request's touchKey just wrote, so a later request counts again.
 */
export function leaveWork(call: WorkerCall): void {
  tryWithoutWaiting(call.store, () =>
    call.store.sqlite.prepare('UPDATE worker_keys SET left_at = coalesce(last_contact_at, ?) WHERE id = ?').run(new Date((call.now ?? Date.now)()).toISOString(), call.holder.id),
  );
}

function releaseJob(store: Store, holder: WorkerKeyHolder, workId: string): boolean {
  return (
    store.db
      .update(reviewJobs)
      .set({ status: 'queued', startedAt: null, leaseOwner: null, heartbeatAt: null, progressDone: null })
      .where(sql`${reviewJobs.status} = 'running' AND ${reviewJobs.leaseOwner} = ${leaseOf(holder, workId)}`)
      .run().changes > 0
  );
}

/**
 * How long a key whose submissions keep failing waits before it gets work again (issue 44 item 1): the first refusal
 * in a row costs nothing (a worker's one bad answer), then 15 s, doubling to 10 minutes. Answered to acquire as 429 with
 * Retry-After, which a stock fishnet client obeys by waiting a minute more than its own back-off (fishnet src/api.rs:
 * "Too many requests. Suspending requests for 60s"); a stored analysis resets it. Seconds still to wait, 0 for none.
 */
export function refusalWaitSeconds(call: WorkerCall): number {
  const row = call.store.sqlite.prepare('SELECT failures, failed_at AS failedAt FROM worker_keys WHERE id = ?').get(call.holder.id) as { failures: number; failedAt: string | null } | undefined;
  if (!row || row.failures < 2 || !row.failedAt) return 0;
  const waitMs = Math.min(600_000, 15_000 * 2 ** (row.failures - 2));
  const left = Date.parse(row.failedAt) + waitMs - (call.now ?? Date.now)();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

export type SubmitOutcome =
  /** Stored, or a progress report taken. */
  | { status: 204 }
  /** Stored, and the next job leased. */
  | { status: 202; next: AcquireResponse }
  /** The submission thread failed: nothing changed, the worker submits again. */
  | { status: 503; error: string }
  | { status: 400 | 404; error: string };

/**
 * A worker's submission for `workId`: a progress report (pending entries null) extends the lease when it brings
 * new positions; a complete analysis is checked (schemas/fishnet.ts for the shape, src/chess/workerAnalysis.ts for
 * the chess, off the main thread: judgement.ts) and stored as the owner's review in one transaction that first
 * confirms the key still holds the job, so a job is stored once whoever submits. A submission that fails a check is
 * refused with what is wrong, and the job goes back to the queue: nothing of it is stored.
 */
export async function submitAnalysis(call: WorkerCall, workId: string, body: unknown, opts: { slow: boolean; stop: boolean }): Promise<SubmitOutcome> {
  const job = heldJob(call, workId);
  if (!job) return notHeld(workId);
  const moves = job.movesUci ? job.movesUci.split(' ') : [];
  const { settings } = call;
  const input: JudgementInput = {
    body,
    startFen: job.startFen,
    moves,
    nodes: settings.nodes,
    known: [...knownOpeningLines(call.store, job.userId, settings.nodes, job.startFen, moves)],
    userId: job.userId,
    movesKey: job.movesKey,
    key: { id: call.holder.id, name: call.holder.name },
    userAgent: call.userAgent,
    at: call.clock.now().toISOString(),
  };
  let judged: Judgement;
  try {
    judged = await judgeOffThread(input);
  } catch {
    return { status: 503, error: 'the server could not check this analysis just now; nothing was changed, submit it again' };
  }
  if (judged.kind === 'refused') return refuse(call, workId, judged.what);
  const now = (call.now ?? Date.now)();
  if (judged.kind === 'progress') {
    extendLease(call, job, workId, judged.done, now);
    return { status: 204 };
  }
  const stored = call.store.sqlite
    .transaction(() => {
      // The lease is checked and the job closed in the same statement: another submission, a re-lease or a local engine cannot slip between.
      const closed = call.store.db
        .update(reviewJobs)
        .set({ status: 'complete', error: null, finishedAt: input.at, leaseOwner: null, progressDone: null })
        .where(sql`${reviewJobs.id} = ${job.id} AND ${reviewJobs.status} = 'running' AND ${reviewJobs.leaseOwner} = ${leaseOf(call.holder, workId)}`)
        .run();
      if (closed.changes === 0) return false;
      storeWorkerReview(call.store, judged.row);
      keepOpeningLines(call.store, job.userId, settings.nodes, judged.positions, call.holder.id);
      call.store.db
        .update(workerKeys)
        .set({
          jobsDone: sql`${workerKeys.jobsDone} + 1`,
          positionsDone: sql`${workerKeys.positionsDone} + ${judged.searched}`,
          searchMs: sql`${workerKeys.searchMs} + ${judged.searchMs}`,
          nodesDone: sql`${workerKeys.nodesDone} + ${judged.nodes}`,
          failures: 0,
          failedAt: null,
        })
        .where(eq(workerKeys.id, call.holder.id))
        .run();
      return true;
    })
    .immediate();
  if (!stored) return notHeld(workId);
  if (opts.stop) return { status: 204 };
  const next = acquireWork(call, opts.slow);
  return next ? { status: 202, next } : { status: 204 };
}

/**
 * A progress report that brings new positions moves the lease on (issue 44 items 3 and 5): to the positions still to
 * search at the worker's own pace or the job's timeout per position, whichever is slower, and never less than one
 * fishnet chunk's worth (src/chess/fishnetChunks.ts: a stock client reports as chunks finish). A slow machine's honest
 * search keeps its job; a report with nothing new (every entry still null, or the same positions again) extends nothing,
 * so a stalled worker's lease runs out.
 */
function extendLease(call: WorkerCall, job: ReviewJob, workId: string, done: number, now: number): void {
  const positions = positionsOf(job);
  const since = job.startedAt ? Date.parse(job.startedAt) : now;
  const pace = done > 0 ? Math.max(0, now - since) / done : 0;
  const perPosition = Math.max(call.settings.timeoutMs, pace);
  const until = heartbeatFor(now, perPosition * Math.max(positions - done, FISHNET_CHUNK_POSITIONS));
  // Only for new positions, and only ever later: a report never shortens the lease.
  call.store.sqlite
    .prepare(
      `UPDATE review_jobs SET progress_done = ?, heartbeat_at = max(coalesce(heartbeat_at, ''), ?)
        WHERE id = ? AND status = 'running' AND lease_owner = ? AND coalesce(progress_done, 0) < ?`,
    )
    .run(done, until, job.id, leaseOf(call.holder, workId), done);
}

/** A submission whose body is not JSON at all: refused like any malformed one (the job back in the queue), or 404 when not held. */
export function refuseUnreadable(call: WorkerCall, workId: string): SubmitOutcome {
  return heldJob(call, workId) ? refuse(call, workId, 'the body is not valid JSON') : notHeld(workId);
}

/**
 * Whether this key holds the job now: asked before a submission's body is read (src/http/fishnet.ts), so that a key
 * submitting for jobs it does not hold (a stale id, a guess, one refused a moment ago) costs the server no body.
 */
export function holdsJob(call: WorkerCall, workId: string): boolean {
  return heldJob(call, workId) !== null;
}

export function notHeld(workId: string): { status: 404; error: string } {
  // One answer for every case (unknown, another key's, stored, re-leased): a key learns nothing of jobs it does not hold.
  return { status: 404, error: `this key holds no job ${workId.slice(0, 24)}: unknown, already stored, or its lease ran out and it was handed out again; acquire another` };
}

function refuse(call: WorkerCall, workId: string, what: string): SubmitOutcome {
  const at = new Date((call.now ?? Date.now)()).toISOString();
  call.store.sqlite.transaction(() => {
    releaseJob(call.store, call.holder, workId);
    call.store.db
      .update(workerKeys)
      .set({ failures: sql`${workerKeys.failures} + 1`, failedAt: at })
      .where(eq(workerKeys.id, call.holder.id))
      .run();
  })();
  return { status: 400, error: `analysis refused, nothing stored, the job is back in the queue: ${what}` };
}

/** GET /fishnet/status for this key's owner: every job here is the owner's own request or a background review. */
export function queueStatus(call: WorkerCall): StatusResponse {
  const now = (call.now ?? Date.now)();
  const staleBefore = new Date(now - STALE_LEASE_MS).toISOString();
  const rows = call.store.sqlite
    .prepare(
      `SELECT priority >= ? AS user,
              sum(status = 'running' AND heartbeat_at >= ?) AS acquired,
              sum(status = 'queued' OR (status = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < ?))) AS queued,
              min(CASE WHEN status = 'queued' THEN created_at END) AS oldest
         FROM review_jobs WHERE user_id = ? AND status IN ('queued', 'running') GROUP BY 1`,
    )
    .all(REVIEW_PRIORITY.request, staleBefore, staleBefore, call.holder.userId) as Array<{ user: number; acquired: number; queued: number; oldest: string | null }>;
  const figures = (user: number) => {
    const r = rows.find((x) => x.user === user);
    return {
      acquired: r?.acquired ?? 0,
      queued: r?.queued ?? 0,
      oldest: r?.oldest ? Math.max(0, Math.floor((now - Date.parse(r.oldest)) / 1000)) : 0,
    };
  };
  return { analysis: { user: figures(1), system: figures(0) } };
}
