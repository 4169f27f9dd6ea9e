import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/**
 * One engine analysis of a move sequence, shared by every game or study row with the same
 * movesKey. `payload` is a StoredAnalysis (schemas/engine.ts) as JSON; derived views
 * (accuracy, classifications, moments, concepts) are recomputed from it deterministically.
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
});

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
  },
  (t) => [index('review_jobs_status').on(t.status, t.createdAt), index('review_jobs_subject').on(t.userId, t.subjectKind, t.subjectId)],
);
