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
