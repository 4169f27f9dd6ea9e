import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/**
 * Dashboard sign-in sessions. Like tokens, only the SHA-256 fingerprint of the cookie value is
 * kept, so a copy of the store cannot be replayed as a browser session.
 */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull().unique(),
    /** How the session was opened: a one-time link or a pasted token. */
    method: text('method', { enum: ['link', 'token'] }).notNull(),
    userAgent: text('user_agent'),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at'),
    expiresAt: text('expires_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/** One-time sign-in codes printed by `serve` and `init`: fingerprint only, single use, short-lived. */
export const signInCodes = sqliteTable('sign_in_codes', {
  fingerprint: text('fingerprint').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: text('created_at').notNull(),
  expiresAt: text('expires_at').notNull(),
  usedAt: text('used_at'),
});
