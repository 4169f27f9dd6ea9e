import { z } from 'zod';
import { csvOf, Range, STAT_TIME_CLASSES, SYNCED_PROVIDERS } from './common.js';

export const StatsInput = z.object({
  range: Range.default('1y').describe('Window: 30d, 90d, 1y (default) or all'),
  provider: csvOf(SYNCED_PROVIDERS, 'providers'),
  timeClass: csvOf(STAT_TIME_CLASSES, 'time classes'),
  opening: z.string().min(1).max(200).optional().describe('Opening-family prefix, case-insensitive (e.g. "Sicilian Defense")'),
});
export type StatsInput = z.infer<typeof StatsInput>;

export const RatingsInput = z.object({
  range: Range.default('1y').describe('Window: 30d, 90d, 1y (default) or all'),
  provider: csvOf(SYNCED_PROVIDERS, 'providers'),
  timeClass: csvOf(STAT_TIME_CLASSES, 'time classes'),
});
export type RatingsInput = z.infer<typeof RatingsInput>;

export const NoInput = z.object({});
