import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  displayName: text('display_name').notNull(),
  email: text('email').notNull().unique(),
  usernameSiteA: text('username_site_a'),
  usernameSiteB: text('username_site_b'),
  createdAt: text('created_at').notNull(),
});

/** Only the SHA-256 fingerprint of a token is kept; the token itself is shown once. */
export const tokens = sqliteTable(
  'tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fingerprint: text('fingerprint').notNull().unique(),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at'),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('tokens_user').on(t.userId)],
);

/** A source the owner connected: chess.com / lichess username or ECF reference code. */
export const connections = sqliteTable(
  'connections',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['siteA', 'siteB', 'fed'] }).notNull(),
    externalId: text('external_id').notNull(),
    // Lichess personal API token (optional): it has to be sent to lichess, so it cannot be a fingerprint.
    sourceToken: text('source_token'),
    status: text('status', { enum: ['never-synced', 'syncing', 'ok', 'error'] })
      .notNull()
      .default('never-synced'),
    statusMessage: text('status_message'),
    connectedAt: text('connected_at').notNull(),
    lastSyncedAt: text('last_synced_at'),
    // Source-specific resume state (lichess `since`, chess.com month ETags), JSON.
    cursor: text('cursor').notNull().default(sql`'{}'`),
    // What the source says about the account now (lichess current perfs), JSON of schemas/profile ConnectionDetails.
    details: text('details'),
  },
  (t) => [uniqueIndex('connections_user_provider').on(t.userId, t.provider)],
);
