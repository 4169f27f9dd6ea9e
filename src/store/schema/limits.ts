import { integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Token buckets, one row per key (family + subject); taken inside BEGIN IMMEDIATE. */
export const rateBuckets = sqliteTable('rate_buckets', {
  key: text('key').primaryKey(),
  tokens: real('tokens').notNull(),
  updatedAtMs: integer('updated_at_ms').notNull(),
});
