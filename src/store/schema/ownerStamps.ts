import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/**
 * Per owner: how many games they hold, a version bumped by every change to their games or
 * rating points, and ones bumped by every change to their coaching data, their study list and their account. Kept by triggers (src/store/ownerStamps.ts), so every writer in every process
 * keeps it right; reads that derive something from a whole history key their cache on `version`.
 */
export const ownerStamps = sqliteTable('owner_stamps', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  games: integer('games').notNull().default(0),
  version: integer('version').notNull().default(0),
  /** Bumped by every change to the owner's coaching log, focuses, saved positions and quiz results. */
  coachingVersion: integer('coaching_version').notNull().default(0),
  /** Bumped by every change to what list_study_games shows: the study rows and notes, the owner's review jobs and reviews. */
  studyVersion: integer('study_version').notNull().default(0),
  /** Bumped by every change to the owner's account: their user row, a token revoked or expiring, their connections. */
  accountVersion: integer('account_version').notNull().default(0),
  /** Bumped by every change to the owner's preparation: their repertoires, scouts and scouted games (issue 37). */
  prepVersion: integer('prep_version').notNull().default(0),
});
