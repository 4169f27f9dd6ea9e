import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.js';
import { games, reviewJobs, studyGames, users } from '../../store/schema/index.js';
import { failedJobNote } from './queue.js';
import { describeWorkerRun, workerKeyOfLease, workerRunOf } from './workerLeases.js';

/** Who runs a job: the review worker's key name (the owner's own key), or this server's local engines. */
function workerName(deps: AppDeps, userId: string, leaseOwner: string | null): string {
  const keyId = workerKeyOfLease(leaseOwner);
  if (!keyId) return 'this server';
  const row = deps.store.sqlite.prepare('SELECT name FROM worker_keys WHERE id = ? AND user_id = ?').get(keyId, userId) as { name: string } | undefined;
  return row?.name ?? 'a review worker';
}

/** A review worker's progress on a job it holds (its reports: positions done of the job's), or null (issue 45 item 6). */
function progressOf(deps: AppDeps, job: { id: string; status: string; leaseOwner: string | null }) {
  if (job.status !== 'running' || !workerKeyOfLease(job.leaseOwner)) return null;
  const run = workerRunOf(deps.store, job.id);
  return run ? { done: run.done, total: run.total, note: describeWorkerRun(run, Date.now()) } : null;
}

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
      subject: job.subjectKind === 'game' ? gameSubject(deps, userId, job.subjectId) : studySubject(deps, userId, job.subjectId),
      worker: job.status !== 'running' ? null : workerName(deps, userId, job.leaseOwner),
      progress: progressOf(deps, job),
    }));
  // Failed jobs still standing: no review of those moves since and no newer job for the subject.
  const failedRecently = deps.store.sqlite
    .prepare(
      `SELECT j.id AS jobId, j.subject_kind AS subjectKind, j.subject_id AS subjectId, j.finished_at AS finishedAt, j.error
         FROM review_jobs j
        WHERE j.user_id = ? AND j.status = 'failed'
          AND NOT EXISTS (SELECT 1 FROM analyses r WHERE r.user_id = j.user_id AND r.moves_key = j.moves_key)
          AND NOT EXISTS (SELECT 1 FROM review_jobs n WHERE n.user_id = j.user_id AND n.subject_kind = j.subject_kind AND n.subject_id = j.subject_id AND (n.created_at, n.rowid) > (j.created_at, j.rowid))
        ORDER BY j.finished_at DESC LIMIT 10`,
    )
    .all(userId)
    .map((r) => {
      const { error, ...rest } = r as { jobId: string; subjectKind: 'game' | 'study'; subjectId: string; finishedAt: string | null; error: string | null };
      const subject = rest.subjectKind === 'game' ? gameSubject(deps, userId, rest.subjectId) : studySubject(deps, userId, rest.subjectId);
      return { ...rest, subject, note: failedJobNote(error) };
    });
  return { ...counts, active, failedRecently };
}

interface Subject {
  white: string;
  black: string;
  date: string | null;
}

/** An owned game named by its players (the owner by display name) and day; null once deleted. */
function gameSubject(deps: AppDeps, userId: string, id: string): Subject | null {
  const row = deps.store.db
    .select({ colour: games.colour, opponent: games.opponent, playedAt: games.playedAt, me: users.displayName })
    .from(games)
    .innerJoin(users, eq(users.id, games.userId))
    .where(and(eq(games.id, id), eq(games.userId, userId)))
    .get();
  if (!row) return null;
  return { white: row.colour === 'white' ? row.me : row.opponent, black: row.colour === 'black' ? row.me : row.opponent, date: row.playedAt.slice(0, 10) };
}

/** A study game named by its PGN's White, Black and Date headers ("?" where the PGN has none). */
function studySubject(deps: AppDeps, userId: string, id: string): Subject | null {
  const row = deps.store.db
    .select({ headers: studyGames.headers })
    .from(studyGames)
    .where(and(eq(studyGames.id, id), eq(studyGames.userId, userId)))
    .get();
  if (!row) return null;
  const h = JSON.parse(row.headers) as Record<string, string>;
  const date = /^\d{4}\.\d{2}\.\d{2}$/.test(h.Date ?? '') ? h.Date.replace(/\./g, '-') : null;
  return { white: h.White ?? '?', black: h.Black ?? '?', date };
}
