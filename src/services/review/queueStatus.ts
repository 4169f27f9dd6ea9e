import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.js';
import { reviewJobs } from '../../store/schema/index.js';
import { failedJobNote } from './queue.js';

/**
 * The account's review jobs by state, where its active ones stand among its own (ReviewQueue.position),
 * and its failed ones still standing, each with why and the next step.
 */
export function reviewQueueStatus(deps: AppDeps, userId: string) {
  const counts = { queued: 0, running: 0, complete: 0, failed: 0 };
  const rows = deps.store.db
    .select({ status: reviewJobs.status, n: sql<number>`count(*)` })
    .from(reviewJobs)
    .where(eq(reviewJobs.userId, userId))
    .groupBy(reviewJobs.status)
    .all();
  for (const r of rows) counts[r.status] = r.n;
  const active = deps.store.db
    .select()
    .from(reviewJobs)
    .where(and(eq(reviewJobs.userId, userId), inArray(reviewJobs.status, ['queued', 'running'])))
    .orderBy(asc(reviewJobs.createdAt))
    .limit(50)
    .all()
    .map((job) => ({
      jobId: job.id,
      subjectKind: job.subjectKind,
      subjectId: job.subjectId,
      status: job.status as 'queued' | 'running',
      position: deps.runtime.reviews.position(job),
      createdAt: job.createdAt,
    }));
  // Failed jobs still standing: no review of those moves since and no newer job for the subject.
  const failedRecently = deps.store.sqlite
    .prepare(
      `SELECT j.id AS jobId, j.subject_kind AS subjectKind, j.subject_id AS subjectId, j.finished_at AS finishedAt, j.error
         FROM review_jobs j
        WHERE j.user_id = ? AND j.status = 'failed'
          AND NOT EXISTS (SELECT 1 FROM owner_reviews r WHERE r.user_id = j.user_id AND r.moves_key = j.moves_key)
          AND NOT EXISTS (SELECT 1 FROM review_jobs n WHERE n.user_id = j.user_id AND n.subject_kind = j.subject_kind AND n.subject_id = j.subject_id AND (n.created_at, n.rowid) > (j.created_at, j.rowid))
        ORDER BY j.finished_at DESC LIMIT 10`,
    )
    .all(userId)
    .map((r) => {
      const { error, ...rest } = r as { jobId: string; subjectKind: 'game' | 'study'; subjectId: string; finishedAt: string | null; error: string | null };
      return { ...rest, note: failedJobNote(error) };
    });
  return { ...counts, active, failedRecently };
}
