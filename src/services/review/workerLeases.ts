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

/** Live worker keys of `userId` (every owner when null) heard from within WORKER_CONNECTED_MS of `now`. */
export function connectedWorkers(store: Store, userId: string | null, now: number): number {
  const since = new Date(now - WORKER_CONNECTED_MS).toISOString();
  const row = store.sqlite
    .prepare(`SELECT count(*) AS n FROM worker_keys WHERE revoked_at IS NULL AND last_contact_at >= ? AND (? IS NULL OR user_id = ?)`)
    .get(since, userId, userId) as { n: number };
  return row.n;
}
