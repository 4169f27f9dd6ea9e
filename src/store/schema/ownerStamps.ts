import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/**
 * Per owner: how many games they hold, and a version bumped by every change to their games or
 * rating points. Kept by triggers (src/store/ownerStamps.ts), so every writer in every process
 * keeps it right; reads that derive something from a whole history key their cache on `version`.
 */
export const ownerStamps = sqliteTable('owner_stamps', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  games: integer('games').notNull().default(0),
  version: integer('version').notNull().default(0),
});
