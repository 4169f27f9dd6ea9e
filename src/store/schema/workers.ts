import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
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
  },
  (t) => [
    index('worker_keys_user').on(t.userId),
    // One live key per name and owner (`worker-key revoke NAME`); a revoked name may be used again.
    uniqueIndex('worker_keys_live_name').on(t.userId, t.name).where(sql`revoked_at IS NULL`),
  ],
);

/** Who a verified worker key is: what every `/fishnet/` call knows of its caller. */
export type WorkerKeyHolder = Pick<typeof workerKeys.$inferSelect, 'id' | 'userId' | 'name'>;
