import { integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Token buckets as the store held them before issue 37: unused since, kept for the migrations' history. The
 * limiter's buckets live in their own file beside the store (src/limits/limiter.ts, `limits.sqlite`), so another
 * process's write lock on the store never holds up a read's take.
 */
export const rateBuckets = sqliteTable('rate_buckets', {
  key: text('key').primaryKey(),
  tokens: real('tokens').notNull(),
  updatedAtMs: integer('updated_at_ms').notNull(),
});
