import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/**
 * lichess opening-explorer answers fetched for an owner's positions (issue 40), one row per position,
 * database (`lichess` at `ratings` and `speeds`, or `masters`) and fetch month (YYYY-MM, UTC): a second
 * run in the same month asks nothing, a later month asks again. Kept per owner, so what one owner's
 * positions asked reveals nothing to another. `answer` is the parsed answer (src/sources/lichess/explorer.ts)
 * as JSON: totals, moves and opening name; `status` is the HTTP status when the explorer answered without data.
 */
export const explorerAnswers = sqliteTable(
  'explorer_answers',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Placement, side to move and castling (src/chess/repertoire.ts positionKey): transpositions share a row.
    positionKey: text('position_key').notNull(),
    database: text('database', { enum: ['lichess', 'masters'] }).notNull(),
    // Comma-separated as asked ('' for masters).
    ratings: text('ratings').notNull(),
    speeds: text('speeds').notNull(),
    month: text('month').notNull(),
    answer: text('answer').notNull(),
    games: integer('games').notNull(),
    fetchedAt: text('fetched_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.positionKey, t.database, t.ratings, t.speeds, t.month] })],
);
