import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/**
 * One owner's review of a move sequence: the engine output (or a source's own analysis, or a review
 * shipped with the demo) the owner's review request, sync or import produced, and when it completed
 * for them. Keyed by owner and moves (migration 0012): nothing one owner's review produced is read,
 * reused or timed for another owner with the same moves (issue 37 item 1); within one owner a second
 * game or study row with the same moves reads the same row. `payload` is a StoredAnalysis
 * (schemas/engine.ts) as JSON. Everything derived from it (accuracy, depth, classifications, moments:
 * `derivation`, src/services/review/derive.ts) is computed once when the review completes and stored
 * with `derivationVersion`; a newer rule set recomputes it from `payload`, never by re-running the engine.
 */
export const analyses = sqliteTable(
  'analyses',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    movesKey: text('moves_key').notNull(),
    payload: text('payload').notNull(),
    engine: text('engine').notNull(),
    depth: integer('depth').notNull(),
    nodesPerPosition: integer('nodes_per_position').notNull(),
    accuracyWhite: real('accuracy_white').notNull(),
    accuracyBlack: real('accuracy_black').notNull(),
    /** When the engine (or the source) analysed the moves. */
    analysedAt: text('analysed_at').notNull(),
    /** When this owner's review completed (their request finished, or their sync stored the source's review). */
    reviewedAt: text('reviewed_at').notNull(),
    /** JSON ReviewDerivation; null until derived (rows written before derivations existed). */
    derivation: text('derivation'),
    derivationVersion: integer('derivation_version').notNull().default(0),
    /**
     * The per-ply view (src/services/review/view.ts: every ply with its lines, and each possible
     * moment), raw-deflated JSON of the same derivation version; null until derived.
     */
    view: blob('view', { mode: 'buffer' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.movesKey] })],
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
    /**
     * Positions a review worker's progress reports have brought for its current lease (0017, issues 44 and 45):
     * what the queue shows of a worker's job, and what a report must pass to extend the lease. Null otherwise.
     */
    progressDone: integer('progress_done'),
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
