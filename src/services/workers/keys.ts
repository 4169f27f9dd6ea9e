import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { revokeWorkerKey } from '../../auth/workerKeys.js';
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/db.js';
import { reviewJobs, workerKeys } from '../../store/schema/index.js';
import { bulkReview, forgetReviews, isConnected, WORKER_LEASE_PREFIX, workerKeyOfLease, workerReviewKeys, type BulkProgress, type ReviewQueue } from '../review/index.js';

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

/** The ids of every key of the owner's that bore this name, live or revoked (a revoked name may be used again). */
function keyIdsNamed(store: Store, userId: string, name: string): string[] {
  return (store.sqlite.prepare('SELECT id FROM worker_keys WHERE user_id = ? AND name = ?').all(userId, name) as Array<{ id: string }>).map((r) => r.id);
}

/**
 * Revokes the owner's live key `name` and undoes what it holds, in one transaction (issue 44 item 5): its jobs go
 * back to the queue at once (not when their lease runs out), and the opening answers its reviews left for later jobs
 * to skip (openingLines.ts) are dropped. Its reviews stay, counted: `review --by-key NAME` reviews them again.
 * Null when the owner has no live key of that name.
 */
export function revokeKey(store: Store, clock: Clock, userId: string, name: string): { released: number; openingLines: number; reviews: number } | null {
  return store.sqlite
    .transaction(() => {
      const live = store.sqlite.prepare('SELECT id FROM worker_keys WHERE user_id = ? AND name = ? AND revoked_at IS NULL').get(userId, name) as { id: string } | undefined;
      if (!live || !revokeWorkerKey(store, clock, userId, name)) return null;
      const released = store.sqlite
        .prepare(
          `UPDATE review_jobs SET status = 'queued', started_at = NULL, lease_owner = NULL, heartbeat_at = NULL, progress_done = NULL
            WHERE user_id = ? AND status = 'running' AND substr(lease_owner, 1, ?) = ?`,
        )
        .run(userId, WORKER_LEASE_PREFIX.length + live.id.length + 1, `${WORKER_LEASE_PREFIX}${live.id}:`).changes;
      const openingLines = store.sqlite.prepare('DELETE FROM worker_opening_lines WHERE user_id = ? AND key_id = ?').run(userId, live.id).changes;
      return { released, openingLines, reviews: workerReviewKeys(store, userId, { ids: keyIdsNamed(store, userId, name), name }).length };
    })
    .immediate();
}

/** The moves of the owner's reviews any key named `name` made (live or revoked): what `review --by-key NAME` reviews again. */
export function reviewsByKey(store: Store, userId: string, name: string): string[] {
  return workerReviewKeys(store, userId, { ids: keyIdsNamed(store, userId, name), name });
}

/**
 * `review --by-key NAME` (issue 44 item 5): the owner's games whose review a key of that name made are reviewed
 * again by this machine's engines. Their worker reviews are forgotten first (the deeper-wins rule would otherwise
 * keep them), then reviewed as a bulk run; study games reviewed by the key keep their review (asked again from Study).
 */
export async function reviewAgainByKey(
  deps: { store: Store; clock: Clock; reviews: ReviewQueue },
  userId: string,
  name: string,
  onProgress?: (p: BulkProgress) => void,
  signal?: AbortSignal,
): Promise<{ byKey: number; games: number; run: BulkProgress | null }> {
  const all = reviewsByKey(deps.store, userId, name);
  const ofGames = (deps.store.sqlite.prepare('SELECT DISTINCT moves_key AS k FROM games WHERE user_id = ? AND moves_key IN (SELECT value FROM json_each(?))').all(userId, JSON.stringify(all)) as Array<{ k: string }>).map((r) => r.k);
  if (!ofGames.length) return { byKey: all.length, games: 0, run: null };
  forgetReviews(deps.store, userId, ofGames);
  return { byKey: all.length, games: ofGames.length, run: await bulkReview(deps, userId, { movesKeys: ofGames }, onProgress, signal) };
}
