import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
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

/**
 * The last failed opening-explorer run of an owner's run key (issue 44 item 7; migration 0018): its reason as the
 * owner reads it, how many runs in a row failed, and when the next may start (doubling back-off). Read by every
 * process on the store, so the reason is shown wherever the owner looks and a retry waits whoever reads. Deleted
 * when a run of the key completes.
 */
export const explorerFetches = sqliteTable(
  'explorer_fetches',
  {
    // `<owner id> <colour> <ratings> <speeds> <masters>` (src/services/peers/view.ts).
    runKey: text('run_key').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['error', 'token-refused'] }).notNull(),
    message: text('message').notNull(),
    failures: integer('failures').notNull(),
    failedAt: text('failed_at').notNull(),
    retryAt: text('retry_at').notNull(),
    // sha-256 of the token the explorer refused (401): never the token itself.
    tokenFingerprint: text('token_fingerprint'),
  },
  (t) => [index('explorer_fetches_user').on(t.userId)],
);

/**
 * One opening-explorer request at a time per store, across processes (`serve` and `mcp` over stdio on one data
 * folder; migration 0018): the single row (id 1) names the process asking and until when (epoch ms) its claim
 * holds; a claim past its time is free, so a process that died leaves no lock behind.
 */
export const explorerLease = sqliteTable('explorer_lease', {
  id: integer('id').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: integer('expires_at').notNull(),
});

/**
 * Which runner fetches an explorer run (src/services/peers/runs.ts's run key: `<owner id> <colour> <ratings> <speeds>
 * <masters>`) across processes (issue 44 item 7; migration 0020): a second process reading the same view meanwhile
 * reports that fetch and neither starts nor charges another. Released when the run ends; a claim past its time is free.
 */
export const explorerRunLease = sqliteTable('explorer_run_lease', {
  runKey: text('run_key').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: integer('expires_at').notNull(),
});
