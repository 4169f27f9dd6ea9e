import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/** A training focus: active until resolved; never deleted. At most 3 active per user (enforced in the write). */
export const coachingFocuses = sqliteTable(
  'coaching_focuses',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    status: text('status', { enum: ['active', 'resolved'] }).notNull(),
    createdAt: text('created_at').notNull(),
    resolvedAt: text('resolved_at'),
  },
  (t) => [index('coaching_focuses_user_status').on(t.userId, t.status)],
);

/**
 * The coaching log, append-only: no row is ever updated or deleted. An assignment's current status
 * is derived: the status of the latest entry naming it in `assignmentId`, else its own `status`.
 * `seq` orders the log (timestamps can tie) and is the paging cursor.
 */
export const coachingEntries = sqliteTable(
  'coaching_entries',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['reflection', 'note', 'assignment', 'result', 'session'] }).notNull(),
    body: text('body').notNull(),
    // An assignment's starting status, or the status this entry gave the assignment it names.
    status: text('status', { enum: ['open', 'completed', 'skipped'] }),
    assignmentId: text('assignment_id'),
    // No foreign key: a saved position may be removed later while the log keeps its history.
    positionId: text('position_id'),
    correct: integer('correct', { mode: 'boolean' }),
    focusId: text('focus_id').references(() => coachingFocuses.id),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('coaching_entries_user_seq').on(t.userId, t.seq),
    index('coaching_entries_assignment').on(t.userId, t.assignmentId),
    index('coaching_entries_user_kind').on(t.userId, t.kind, t.seq),
  ],
);

/** A saved position to quiz later. At most 500 per user (enforced in the write). */
export const savedPositions = sqliteTable(
  'saved_positions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fen: text('fen').notNull(),
    label: text('label').notNull(),
    why: text('why'),
    focusId: text('focus_id').references(() => coachingFocuses.id),
    // Where it was copied from: a played game or a study game of the owner, and the ply after which it stands.
    sourceKind: text('source_kind', { enum: ['game', 'study'] }),
    sourceId: text('source_id'),
    sourcePly: integer('source_ply'),
    // Copied from the owner's review (UCI frame: side to move), when saved from a game.
    evalCp: integer('eval_cp'),
    evalMate: integer('eval_mate'),
    bestMoveUci: text('best_move_uci'),
    lastQuizzedAt: text('last_quizzed_at'),
    // Result of the latest quiz (null: never quizzed); kept with the history for the dueForQuiz filter.
    lastQuizCorrect: integer('last_quiz_correct', { mode: 'boolean' }),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('saved_positions_user_created').on(t.userId, t.createdAt), index('saved_positions_user_focus').on(t.userId, t.focusId)],
);

/** Quiz history of a saved position, one row per `result` entry naming it; removed with the position. */
export const positionQuizzes = sqliteTable(
  'position_quizzes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    positionId: text('position_id')
      .notNull()
      .references(() => savedPositions.id, { onDelete: 'cascade' }),
    entryId: text('entry_id').notNull(),
    correct: integer('correct', { mode: 'boolean' }).notNull(),
    quizzedAt: text('quizzed_at').notNull(),
  },
  (t) => [index('position_quizzes_position').on(t.positionId, t.id)],
);
