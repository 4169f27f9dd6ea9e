import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { StoredAnalysis } from '../../../schemas/engine.js';
import { analysisAccuracy } from '../../chess/reviewAccuracy.js';
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/db.js';
import { analyses, reviewJobs } from '../../store/schema/index.js';
import type { Analyser } from '../../engine/pool.js';

export type ReviewJob = typeof reviewJobs.$inferSelect;
export type AnalysisRow = typeof analyses.$inferSelect;

export interface EnqueueRequest {
  userId: string;
  subjectKind: 'game' | 'study';
  subjectId: string;
  movesKey: string;
  startFen: string;
  movesUci: readonly string[];
}

/**
 * The persistent review queue (table review_jobs): queued → running → complete | failed.
 * Jobs are rows, so a restart loses nothing: jobs left `running` by an earlier process go back to
 * `queued` when this one starts its workers. Workers run one job at a time (the engine pool already
 * spreads one game over every engine process); completion writes the `analyses` row and the owner's
 * accuracy on their games with that movesKey in one transaction.
 */
export class ReviewQueue {
  private readonly startedAt: string;
  private running = false;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private listeners = new Set<() => void>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly analyser: () => Analyser,
  ) {
    this.startedAt = clock.now().toISOString();
  }

  analysis(movesKey: string): AnalysisRow | null {
    return this.store.db.select().from(analyses).where(eq(analyses.movesKey, movesKey)).get() ?? null;
  }

  storedAnalysis(movesKey: string): StoredAnalysis | null {
    const row = this.analysis(movesKey);
    return row ? StoredAnalysis.parse(JSON.parse(row.payload)) : null;
  }

  job(id: string): ReviewJob | null {
    return this.store.db.select().from(reviewJobs).where(eq(reviewJobs.id, id)).get() ?? null;
  }

  /** A queued or running job of this user for the subject or for the same moves; null when none. */
  activeJob(userId: string, subjectKind: 'game' | 'study', subjectId: string, movesKey: string): ReviewJob | null {
    const rows = this.store.db
      .select()
      .from(reviewJobs)
      .where(and(eq(reviewJobs.userId, userId), inArray(reviewJobs.status, ['queued', 'running'])))
      .orderBy(asc(reviewJobs.createdAt))
      .all();
    return rows.find((r) => (r.subjectKind === subjectKind && r.subjectId === subjectId) || r.movesKey === movesKey) ?? null;
  }

  /** The latest job of this user for the subject, whatever its state. */
  latestJob(userId: string, subjectKind: 'game' | 'study', subjectId: string): ReviewJob | null {
    return (
      this.store.db
        .select()
        .from(reviewJobs)
        .where(and(eq(reviewJobs.userId, userId), eq(reviewJobs.subjectKind, subjectKind), eq(reviewJobs.subjectId, subjectId)))
        .orderBy(desc(reviewJobs.createdAt))
        .get() ?? null
    );
  }

  /** Adds a queued job. Runs inside the caller's transaction when there is one (better-sqlite3 nests as savepoints). */
  enqueue(req: EnqueueRequest): ReviewJob {
    const row = insertReviewJob(this.store, this.clock, req);
    this.wake?.();
    return row;
  }


  /** Jobs of this user waiting ahead of (and including) the given one, for a queued note. */
  position(job: ReviewJob): number {
    const queued = this.store.db
      .select({ id: reviewJobs.id, createdAt: reviewJobs.createdAt })
      .from(reviewJobs)
      .where(inArray(reviewJobs.status, ['queued', 'running']))
      .orderBy(asc(reviewJobs.createdAt))
      .all();
    const i = queued.findIndex((q) => q.id === job.id);
    return i < 0 ? 0 : i + 1;
  }

  /** Calls `fn` whenever a job finishes (pollers use it to answer as soon as their job is done). */
  onFinished(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Returns jobs a dead process left running to the queue. */
  private requeueOrphans(): number {
    const res = this.store.sqlite
      .prepare("UPDATE review_jobs SET status = 'queued', started_at = NULL WHERE status = 'running' AND (started_at IS NULL OR started_at < ?)")
      .run(this.startedAt);
    return res.changes;
  }

  /** Takes the oldest queued job and marks it running, atomically (several processes may share a store). */
  private claim(): ReviewJob | null {
    return this.store.sqlite
      .transaction(() => {
        const next = this.store.db
          .select()
          .from(reviewJobs)
          .where(eq(reviewJobs.status, 'queued'))
          .orderBy(asc(reviewJobs.createdAt))
          .get();
        if (!next) return null;
        const startedAt = this.clock.now().toISOString();
        this.store.db
          .update(reviewJobs)
          .set({ status: 'running', startedAt, attempts: next.attempts + 1 })
          .where(and(eq(reviewJobs.id, next.id), eq(reviewJobs.status, 'queued')))
          .run();
        return { ...next, status: 'running' as const, startedAt, attempts: next.attempts + 1 };
      })
      .immediate();
  }

  /** Runs one job to completion or failure. Returns false when the queue was empty. */
  async runOnce(): Promise<boolean> {
    const job = this.claim();
    if (!job) return false;
    const existing = this.analysis(job.movesKey);
    try {
      const analysis =
        existing
          ? StoredAnalysis.parse(JSON.parse(existing.payload))
          : await this.analyser().analyse(job.startFen, job.movesUci ? job.movesUci.split(' ') : [], () => this.clock.now().toISOString());
      this.complete(job, analysis);
    } catch (err) {
      if (this.stopping) {
        // Shutting down killed the engines mid-job: the job is not at fault; the next start resumes it.
        this.store.db.update(reviewJobs).set({ status: 'queued', startedAt: null }).where(eq(reviewJobs.id, job.id)).run();
        return true;
      }
      const reason = err instanceof Error ? err.message : String(err);
      this.store.db
        .update(reviewJobs)
        .set({ status: 'failed', error: reason.slice(0, 500), finishedAt: this.clock.now().toISOString() })
        .where(eq(reviewJobs.id, job.id))
        .run();
    }
    for (const fn of this.listeners) fn();
    return true;
  }

  private complete(job: ReviewJob, analysis: StoredAnalysis): void {
    const acc = analysisAccuracy(analysis);
    const depths = analysis.positions.filter((p) => !p.terminal).map((p) => p.depth);
    // The depth a review reports: the median of the searched positions' depths (robust to a few
    // shallow mate-found searches and deep endgame ones).
    const depth = depths.length ? [...depths].sort((a, b) => a - b)[Math.floor(depths.length / 2)] : 0;
    const now = this.clock.now().toISOString();
    this.store.sqlite
      .transaction(() => {
        this.store.db
          .insert(analyses)
          .values({
            movesKey: job.movesKey,
            payload: JSON.stringify(analysis),
            engine: `${analysis.engine.name} ${analysis.engine.version}`,
            depth,
            nodesPerPosition: analysis.budget.nodesPerPosition,
            // One decimal, as shown everywhere; gameAccuracy itself stays exact for comparison with lichess.
            accuracyWhite: Math.round(acc.white * 10) / 10,
            accuracyBlack: Math.round(acc.black * 10) / 10,
            analysedAt: analysis.analysedAt,
          })
          .onConflictDoNothing()
          .run();
        const row = this.analysis(job.movesKey)!;
        copyReviewAccuracy(this.store, job.userId, row);
        this.store.db.update(reviewJobs).set({ status: 'complete', error: null, finishedAt: now }).where(eq(reviewJobs.id, job.id)).run();
      })
      .immediate();
  }

  /** Starts the worker loop (idempotent). `serve` calls it; tests and one-shot commands need not. */
  startWorkers(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.requeueOrphans();
    this.loop = (async () => {
      while (!this.stopping) {
        const didWork = await this.runOnce().catch((err) => {
          console.error('[reviews] worker error', err);
          return false;
        });
        if (didWork || this.stopping) continue;
        // Idle: sleep until a job is enqueued here, or poll now and then for jobs another process added.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2000);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    })();
  }

  /**
   * Stops the loop. `interrupt` (called after the analyser was closed) lets a job cut short go back to
   * the queue; without it the current job finishes first.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = null;
    this.running = false;
  }

  get workersRunning(): boolean {
    return this.running;
  }
}

/**
 * Copies the owner's accuracy from a finished analysis onto that user's games with the same moves,
 * by the colour each game records. Bumps `version`: every change to a game row does.
 */
export function copyReviewAccuracy(store: Store, userId: string, row: AnalysisRow): void {
  store.sqlite
    .prepare(
      `UPDATE games SET review_accuracy = CASE colour WHEN 'white' THEN ? ELSE ? END, version = version + 1
       WHERE user_id = ? AND moves_key = ? AND review_accuracy IS NOT (CASE colour WHEN 'white' THEN ? ELSE ? END)`,
    )
    .run(row.accuracyWhite, row.accuracyBlack, userId, row.movesKey, row.accuracyWhite, row.accuracyBlack);
}

/** Inserts a queued review job (the demo seeder queues reviews without a runtime). */
export function insertReviewJob(store: Store, clock: Clock, req: EnqueueRequest): ReviewJob {
  const row: ReviewJob = {
    id: randomUUID(),
    userId: req.userId,
    subjectKind: req.subjectKind,
    subjectId: req.subjectId,
    movesKey: req.movesKey,
    startFen: req.startFen,
    movesUci: req.movesUci.join(' '),
    status: 'queued',
    error: null,
    attempts: 0,
    createdAt: clock.now().toISOString(),
    startedAt: null,
    finishedAt: null,
  };
  store.db.insert(reviewJobs).values(row).run();
  return row;
}
