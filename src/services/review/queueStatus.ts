import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.js';
import { reviewJobs } from '../../store/schema/index.js';

/** The account's review jobs by state, and where its active ones stand in the shared queue. */
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
  return { ...counts, active };
}
