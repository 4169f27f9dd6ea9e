import { sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/** A weekly report, frozen at generation: the payload JSON is written once and never updated. */
export const weeklyReports = sqliteTable(
  'weekly_reports',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Saturday .. Friday (UTC), YYYY-MM-DD
    weekStart: text('week_start').notNull(),
    weekEnd: text('week_end').notNull(),
    payload: text('payload').notNull(),
    generatedAt: text('generated_at').notNull(),
    // 32 random bytes, base64url: the only key of the public share page.
    shareToken: text('share_token').notNull().unique(),
    // Set once the Friday email went out, so a restart never sends it twice.
    emailedAt: text('emailed_at'),
  },
  (t) => [uniqueIndex('weekly_reports_week').on(t.userId, t.weekEnd)],
);
