import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/**
 * One engine analysis of a move sequence (engine output, reused internally by every row with the
 * same movesKey). `payload` is a StoredAnalysis (schemas/engine.ts) as JSON. Everything derived
 * from it (accuracy, depth, classifications, moments: `derivation`, src/services/review/derive.ts)
 * is computed once when the review completes and stored with `derivationVersion`; a newer rule set
 * recomputes it from `payload`, never by re-running the engine. Whether an owner has a review is
 * `owner_reviews`, never the existence of this row.
 */
export const analyses = sqliteTable('analyses', {
  movesKey: text('moves_key').primaryKey(),
  payload: text('payload').notNull(),
  engine: text('engine').notNull(),
  depth: integer('depth').notNull(),
  nodesPerPosition: integer('nodes_per_position').notNull(),
  accuracyWhite: real('accuracy_white').notNull(),
  accuracyBlack: real('accuracy_black').notNull(),
  analysedAt: text('analysed_at').notNull(),
  /** JSON ReviewDerivation; null until derived (rows written before derivations existed). */
  derivation: text('derivation'),
  derivationVersion: integer('derivation_version').notNull().default(0),
  /**
   * The per-ply view (src/services/review/view.ts: every ply with its lines, and each possible
   * moment), raw-deflated JSON of the same derivation version; null until derived.
   */
  view: blob('view', { mode: 'buffer' }),
});

/**
 * Each owner's own review state: a row exists once the owner's review request completed, with
 * the owner's time. Another owner holding the same moves reveals nothing: their first request
 * queues, spends their allowance and gets their time, even when the engine output is reused.
 */
export const ownerReviews = sqliteTable(
  'owner_reviews',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    movesKey: text('moves_key').notNull(),
    reviewedAt: text('reviewed_at').notNull(),
  },
  // By movesKey: a derivation brought to a new version bumps the study version of each owner holding it (src/store/ownerStamps.ts).
  (t) => [primaryKey({ columns: [t.userId, t.movesKey] }), index('owner_reviews_moves_key').on(t.movesKey)],
);

/** The persistent review queue: queued → running → complete | failed; resumed after a restart. */
export const reviewJobs = sqliteTable(
  'review_jobs',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subjectKind: text('subject_kind', { enum: ['game', 'study'] }).notNull(),
    subjectId: text('subject_id').notNull(),
    movesKey: text('moves_key').notNull(),
    // The PGN (or SAN line) to analyse, so a job survives its subject being deleted mid-run.
    startFen: text('start_fen').notNull(),
    movesUci: text('moves_uci').notNull(),
    status: text('status', { enum: ['queued', 'running', 'complete', 'failed'] }).notNull(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: text('created_at').notNull(),
    startedAt: text('started_at'),
    finishedAt: text('finished_at'),
    /** The process running the job (`host:pid:start`), and its last heartbeat; a stale heartbeat frees the job. */
    leaseOwner: text('lease_owner'),
    heartbeatAt: text('heartbeat_at'),
    /** Lower runs later: API requests 0, bulk reviews below (REVIEW_PRIORITY). */
    priority: integer('priority').notNull().default(0),
  },
  (t) => [
    index('review_jobs_status').on(t.status, t.createdAt),
    index('review_jobs_subject').on(t.userId, t.subjectKind, t.subjectId),
    // One active job per subject and per owner's moves: the engine never runs twice on one game (0010).
    uniqueIndex('review_jobs_active_subject').on(t.userId, t.subjectKind, t.subjectId).where(sql`status IN ('queued', 'running')`),
    uniqueIndex('review_jobs_active_moves').on(t.userId, t.movesKey).where(sql`status IN ('queued', 'running')`),
  ],
);

/**
 * The one process working the review queue (engines per machine, not per process): at most one row
 * (id 1), renewed by its holder's heartbeat, released when it stops or runs out of work; a holder whose
 * heartbeat went stale, or whose process on this machine exited, loses it (services/review/queue.ts).
 */
export const reviewWorkerLease = sqliteTable('review_worker_lease', {
  id: integer('id').primaryKey(),
  leaseOwner: text('lease_owner').notNull(),
  heartbeatAt: text('heartbeat_at').notNull(),
});
