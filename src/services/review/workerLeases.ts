import type { Store } from '../../store/db.js';

/** A review worker's job lease (`lease_owner` of a running job): `fishnet:<key id>:<work id>` (services/workers/jobs.ts). */
export const WORKER_LEASE_PREFIX = 'fishnet:';
/** The worker key id holding a job, from its lease; null for a local engine's lease or none. */
export function workerKeyOfLease(leaseOwner: string | null): string | null {
  if (!leaseOwner?.startsWith(WORKER_LEASE_PREFIX)) return null;
  return leaseOwner.slice(WORKER_LEASE_PREFIX.length).split(':')[0] || null;
}

/**
 * A worker counts as connected while its last request is this recent. A fishnet client with nothing to do
 * asks again within a minute (its back-off), and one searching reports progress or submits well within it.
 */
export const WORKER_CONNECTED_MS = 120_000;

/**
 * SQL over a `worker_keys` row aliased `k`, with one parameter (the ISO time WORKER_CONNECTED_MS before now): live,
 * heard from since, and not stopped since it was last heard from (a worker that left, or aborted its job as a
 * fishnet client does when it shuts down, is gone at once: issue 45 item 6).
 */
export const CONNECTED_KEY_SQL = `(k.revoked_at IS NULL AND k.last_contact_at >= ? AND (k.left_at IS NULL OR k.last_contact_at > k.left_at))`;

/** The owner's live worker keys heard from within WORKER_CONNECTED_MS of `now` and not stopped since. */
export function connectedWorkers(store: Store, userId: string, now: number): number {
  const since = new Date(now - WORKER_CONNECTED_MS).toISOString();
  const row = store.sqlite.prepare(`SELECT count(*) AS n FROM worker_keys k WHERE k.user_id = ? AND ${CONNECTED_KEY_SQL}`).get(userId, since) as { n: number };
  return row.n;
}

/** Whether a worker key row counts as connected at `now` (the same rule as CONNECTED_KEY_SQL, for rows already read). */
export function isConnected(k: { revokedAt: string | null; lastContactAt: string | null; leftAt: string | null }, now: number): boolean {
  const since = new Date(now - WORKER_CONNECTED_MS).toISOString();
  return !k.revokedAt && k.lastContactAt !== null && k.lastContactAt >= since && (k.leftAt === null || k.lastContactAt > k.leftAt);
}

/** What is known of a job a review worker holds: the machine, positions done of the job's, since when. */
export interface WorkerRun {
  /** The worker key's name; null when the key is gone (another owner's never reaches here: jobs are the owner's). */
  worker: string | null;
  done: number;
  total: number;
  startedAt: string | null;
}

/**
 * SQL columns (over a `review_jobs` row aliased `j`) for a WorkerRun as JSON, or NULL when no worker holds the job:
 * the key's name, the progress its reports brought (migration 0017), the job's positions and when it was handed out.
 */
export const WORKER_RUN_SQL = `CASE WHEN j.status = 'running' AND j.lease_owner LIKE '${WORKER_LEASE_PREFIX}%' THEN json_object(
    'worker', (SELECT k.name FROM worker_keys k WHERE k.user_id = j.user_id AND j.lease_owner LIKE '${WORKER_LEASE_PREFIX}' || k.id || ':%'),
    'done', coalesce(j.progress_done, 0),
    'total', CASE WHEN j.moves_uci = '' THEN 1 ELSE length(j.moves_uci) - length(replace(j.moves_uci, ' ', '')) + 2 END,
    'startedAt', j.started_at) END`;

/** "review worker “laptop” has searched 34 of 108 positions in 3 min; about 6 min left at its pace" (issue 45 item 6). */
export function describeWorkerRun(run: WorkerRun, now: number): string {
  const who = run.worker ? `review worker “${run.worker}”` : 'a review worker';
  const elapsed = run.startedAt ? Math.max(0, now - Date.parse(run.startedAt)) : null;
  const took = elapsed === null ? '' : ` in ${duration(elapsed)}`;
  if (run.done === 0) return `${who} has it (${run.total} positions to search; no progress report yet${elapsed === null ? '' : `, started ${duration(elapsed)} ago`})`;
  const left = elapsed !== null && run.done < run.total ? `; about ${duration((elapsed / run.done) * (run.total - run.done))} left at its pace` : '';
  return `${who} has searched ${run.done} of ${run.total} positions${took}${left}`;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 90 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** The WorkerRun of a job, or null when no review worker holds it. */
export function workerRunOf(store: Store, jobId: string): WorkerRun | null {
  const row = store.sqlite.prepare(`SELECT ${WORKER_RUN_SQL} AS run FROM review_jobs j WHERE j.id = ?`).get(jobId) as { run: string | null } | undefined;
  return row?.run ? (JSON.parse(row.run) as WorkerRun) : null;
}
