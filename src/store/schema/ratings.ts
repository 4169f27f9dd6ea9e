import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/**
 * Rating readings that do not come from a game row: lichess rating history per perf,
 * ECF published ratings, lichess puzzle rating, chess.com tactics highest/lowest.
 * `series` names the rating: a raw time class (bullet, blitz, rapid, classical, correspondence,
 * standard), or puzzle, tactics-highest, tactics-lowest.
 */
export const ratingPoints = sqliteTable(
  'rating_points',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['siteA', 'siteB', 'fed'] }).notNull(),
    series: text('series').notNull(),
    date: text('date').notNull(),
    rating: integer('rating').notNull(),
  },
  (t) => [uniqueIndex('rating_points_key').on(t.userId, t.provider, t.series, t.date)],
);

/** One solved or failed puzzle (lichess puzzle activity). */
export const puzzleAttempts = sqliteTable(
  'puzzle_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['siteA', 'siteB'] }).notNull(),
    puzzleId: text('puzzle_id').notNull(),
    attemptedAt: text('attempted_at').notNull(),
    win: integer('win', { mode: 'boolean' }).notNull(),
    puzzleRating: integer('puzzle_rating'),
  },
  (t) => [uniqueIndex('puzzle_attempts_key').on(t.userId, t.provider, t.puzzleId, t.attemptedAt)],
);
