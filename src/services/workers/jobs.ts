import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { AnalysisSubmission, type AcquireResponse, type StatusResponse } from '../../../schemas/fishnet.js';
import type { StoredAnalysis } from '../../chess/engineOutput.js';
import { checkSubmission } from '../../chess/workerAnalysis.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { tryWithoutWaiting } from '../../store/busy.js';
import type { Store } from '../../store/db.js';
import { reviewJobs, workerKeys, type WorkerKeyHolder } from '../../store/schema/index.js';
import { analysisRow, REVIEW_PRIORITY, STALE_LEASE_MS, storeWorkerReview, WORKER_LEASE_PREFIX, type ReviewJob } from '../review/index.js';
import { describeProtocolIssues } from './issues.js';
import { keepOpeningLines, knownOpeningLines } from './openingLines.js';

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
  return store.sqlite
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
          startedAt: call.clock.now().toISOString(),
          leaseOwner: leaseOf(call.holder, workId),
          heartbeatAt: heartbeatFor(now, settings.timeoutMs * positions),
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

/** Puts a held job back in the queue; false when the key does not hold it. */
export function abortWork(call: WorkerCall, workId: string): boolean {
  return releaseJob(call.store, call.holder, workId);
}

function releaseJob(store: Store, holder: WorkerKeyHolder, workId: string): boolean {
  return (
    store.db
      .update(reviewJobs)
      .set({ status: 'queued', startedAt: null, leaseOwner: null, heartbeatAt: null })
      .where(sql`${reviewJobs.status} = 'running' AND ${reviewJobs.leaseOwner} = ${leaseOf(holder, workId)}`)
      .run().changes > 0
  );
}

export type SubmitOutcome =
  /** Stored, or a progress report taken. */
  | { status: 204 }
  /** Stored, and the next job leased. */
  | { status: 202; next: AcquireResponse }
  | { status: 400 | 404; error: string };

/**
 * A worker's submission for `workId`: a progress report (pending entries null) extends the lease; a
 * complete analysis is checked (schemas/fishnet.ts for the shape, src/chess/workerAnalysis.ts for the
 * chess) and stored as the owner's review in one transaction that first confirms the key still holds
 * the job, so a job is stored once whoever submits. A submission that fails a check is refused with
 * what is wrong, and the job goes back to the queue: nothing of it is stored.
 */
export function submitAnalysis(call: WorkerCall, workId: string, body: unknown, opts: { slow: boolean; stop: boolean }): SubmitOutcome {
  const job = heldJob(call, workId);
  if (!job) return notHeld(workId);
  const parsed = AnalysisSubmission.safeParse(body);
  if (!parsed.success) return refuse(call, workId, describeProtocolIssues(parsed.error as z.ZodError));
  const moves = job.movesUci ? job.movesUci.split(' ') : [];
  const { settings } = call;
  const known = knownOpeningLines(call.store, job.userId, settings.nodes, job.startFen, moves);
  const check = checkSubmission(job.startFen, moves, parsed.data.analysis, { nodesAsked: settings.nodes, maxTimeMs: settings.timeoutMs, known });
  if (!check.ok) return refuse(call, workId, check.faults.join('; '));
  const now = (call.now ?? Date.now)();
  if (!check.complete) {
    // Progress: the lease runs on for the positions still to search.
    const until = heartbeatFor(now, settings.timeoutMs * Math.max(1, moves.length + 1 - check.done));
    // Only ever later: a report never shortens the lease.
    call.store.db
      .update(reviewJobs)
      .set({ heartbeatAt: until })
      .where(sql`${reviewJobs.id} = ${job.id} AND ${reviewJobs.status} = 'running' AND ${reviewJobs.leaseOwner} = ${leaseOf(call.holder, workId)} AND ${reviewJobs.heartbeatAt} < ${until}`)
      .run();
    return { status: 204 };
  }
  const at = call.clock.now().toISOString();
  const analysis: StoredAnalysis = {
    // The engine as the worker named it; no measured scale applies to it (src/chess/calibration.ts: factor 1).
    engine: { name: call.userAgent.slice(0, 200) || 'fishnet client', version: parsed.data.stockfish.flavor, network: null },
    worker: { key: call.holder.name, userAgent: call.userAgent.slice(0, 200), flavor: parsed.data.stockfish.flavor },
    budget: { nodesPerPosition: settings.nodes, multiPv: 1, search: 'fishnet' },
    startFen: job.startFen,
    movesUci: moves,
    positions: check.positions,
    analysedAt: at,
  };
  // Derived before the transaction, as the queue does: the write lock is held only for the writes.
  const row = analysisRow(job.userId, job.movesKey, analysis, at);
  const searched = parsed.data.analysis.filter((e) => e !== null && !('skipped' in e));
  const sum = (f: (e: { nodes?: number; time?: number }) => number | undefined) => searched.reduce((s, e) => s + (f(e as { nodes?: number; time?: number }) ?? 0), 0);
  const stored = call.store.sqlite
    .transaction(() => {
      // The lease is checked and the job closed in the same statement: another submission, a re-lease or a local engine cannot slip between.
      const closed = call.store.db
        .update(reviewJobs)
        .set({ status: 'complete', error: null, finishedAt: at, leaseOwner: null })
        .where(sql`${reviewJobs.id} = ${job.id} AND ${reviewJobs.status} = 'running' AND ${reviewJobs.leaseOwner} = ${leaseOf(call.holder, workId)}`)
        .run();
      if (closed.changes === 0) return false;
      storeWorkerReview(call.store, row);
      keepOpeningLines(call.store, job.userId, settings.nodes, check.positions);
      call.store.db
        .update(workerKeys)
        .set({
          jobsDone: sql`${workerKeys.jobsDone} + 1`,
          positionsDone: sql`${workerKeys.positionsDone} + ${searched.length}`,
          searchMs: sql`${workerKeys.searchMs} + ${sum((e) => e.time)}`,
          nodesDone: sql`${workerKeys.nodesDone} + ${sum((e) => e.nodes)}`,
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

/** A submission whose body is not JSON at all: refused like any malformed one (the job back in the queue), or 404 when not held. */
export function refuseUnreadable(call: WorkerCall, workId: string): SubmitOutcome {
  return heldJob(call, workId) ? refuse(call, workId, 'the body is not valid JSON') : notHeld(workId);
}

function notHeld(workId: string): SubmitOutcome {
  // One answer for every case (unknown, another key's, stored, re-leased): a key learns nothing of jobs it does not hold.
  return { status: 404, error: `this key holds no job ${workId.slice(0, 24)}: unknown, already stored, or its lease ran out and it was handed out again; acquire another` };
}

function refuse(call: WorkerCall, workId: string, what: string): SubmitOutcome {
  releaseJob(call.store, call.holder, workId);
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
