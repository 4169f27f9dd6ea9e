import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Store } from '../../store/db.js';
import { reviewJobs, workerKeys } from '../../store/schema/index.js';
import { isConnected, workerKeyOfLease } from '../review/index.js';

/**
 * The owner's worker keys as the owner sees them (settings API, dashboard, `worker-key list`): never the
 * key, only its name and what the machine did. Positions per second are the stored jobs' positions over
 * the search time they reported: the machine's pace, not the wall clock's.
 */
export function listWorkerKeys(store: Store, userId: string, now: number, opts: { revoked?: boolean } = {}) {
  const rows = store.db
    .select()
    .from(workerKeys)
    .where(opts.revoked ? eq(workerKeys.userId, userId) : and(eq(workerKeys.userId, userId), isNull(workerKeys.revokedAt)))
    .orderBy(asc(workerKeys.createdAt), asc(sql`rowid`))
    .all();
  const running = store.db
    .select({ leaseOwner: reviewJobs.leaseOwner })
    .from(reviewJobs)
    .where(and(eq(reviewJobs.userId, userId), inArray(reviewJobs.status, ['running'])))
    .all();
  return rows.map((r) => ({
    name: r.name,
    createdAt: r.createdAt,
    revokedAt: r.revokedAt,
    lastContactAt: r.lastContactAt,
    connected: isConnected(r, now),
    client: r.lastUserAgent,
    jobsDone: r.jobsDone,
    positionsDone: r.positionsDone,
    positionsPerSecond: r.searchMs > 0 ? Math.round((r.positionsDone * 10_000) / r.searchMs) / 10 : null,
    jobsHeld: running.filter((j) => workerKeyOfLease(j.leaseOwner) === r.id).length,
  }));
}
export type WorkerKeyView = ReturnType<typeof listWorkerKeys>[number];
