import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/**
 * Review workers' keys (issue 36): a machine running a fishnet client (lichess's stock client, or
 * `chess-footprint worker`) reviews its owner's games with this key. Apart from personal tokens: a
 * worker key opens `/fishnet/*` and nothing else, and a personal token opens no `/fishnet/` route.
 * Stored as the SHA-256 fingerprint only, as tokens are (src/auth/tokens.ts). The figures below are
 * what the owner sees of each machine: last contact, jobs stored, positions and the search time they took.
 */
export const workerKeys = sqliteTable(
  'worker_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fingerprint: text('fingerprint').notNull().unique(),
    createdAt: text('created_at').notNull(),
    revokedAt: text('revoked_at'),
    lastContactAt: text('last_contact_at'),
    /** The User-Agent of the last request (the client and its version). */
    lastUserAgent: text('last_user_agent'),
    jobsDone: integer('jobs_done').notNull().default(0),
    positionsDone: integer('positions_done').notNull().default(0),
    /** Milliseconds of search the stored jobs reported (sum of each position's `time`). */
    searchMs: integer('search_ms').notNull().default(0),
    /** Nodes the stored jobs reported (sum of each position's `nodes`). */
    nodesDone: integer('nodes_done').notNull().default(0),
    /** Submissions refused in a row (0017, issue 44): a key whose submissions keep failing waits before it gets work again. */
    failures: integer('failures').notNull().default(0),
    /** When the last of those refusals was. */
    failedAt: text('failed_at'),
    /** When the machine said it was stopping (abort, or `chess-footprint worker` leaving): not connected unless heard from since (issue 45). */
    leftAt: text('left_at'),
  },
  (t) => [
    index('worker_keys_user').on(t.userId),
    // One live key per name and owner (`worker-key revoke NAME`); a revoked name may be used again.
    uniqueIndex('worker_keys_live_name').on(t.userId, t.name).where(sql`revoked_at IS NULL`),
  ],
);

/** Who a verified worker key is: what every `/fishnet/` call knows of its caller. */
export type WorkerKeyHolder = Pick<typeof workerKeys.$inferSelect, 'id' | 'userId' | 'name'>;

/**
 * What review workers answered for the owner's opening positions, so a later job skips them (the fishnet
 * protocol's `skipPositions`), as lichess fills the first positions of a game from its evaluation cache (lila
 * modules/fishnet FishnetEvalCache: `maxPlies = 15`, the start position and the next 14). Per owner, like
 * every review; per node budget, so an answer is reused only at the budget it was searched at. `line` is the
 * stored position (src/chess/engineOutput.ts StoredPosition, without its index) as JSON. Rows are only
 * ever added (the first answer stays), so a job's skipped positions read the same at hand-out and at submission.
 */
export const workerOpeningLines = sqliteTable(
  'worker_opening_lines',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** src/chess/engineOutput.ts positionKey: placement, side, castling, en passant, so transpositions meet. */
    positionKey: text('position_key').notNull(),
    nodes: integer('nodes').notNull(),
    line: text('line').notNull(),
    /** The worker key whose review answered it (0017): revoking the key drops its lines (issue 44). Null for rows kept before 0017. */
    keyId: text('key_id'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.positionKey, t.nodes] })],
);
