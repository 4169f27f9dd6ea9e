import { generateReport, lastClosedWeekEnd } from '../services/reports/index.js';
import { addDays } from '../services/common/index.js';
import type { DemoSeeder } from './seeder.js';

/** How many past weeks get a frozen report. */
const WEEKS = 2;

/**
 * Freezes the demo owner's reports of the last closed weeks from the games and puzzles already
 * seeded: run it after the games and puzzles seeders. Share links are built when read, from the origin serving them.
 */
export const seedDemoReports: DemoSeeder = ({ store, clock, user, log }) => {
  const last = lastClosedWeekEnd(clock.now());
  for (let i = WEEKS - 1; i >= 0; i -= 1) {
    const { row } = generateReport(store, clock, user.id, addDays(last, -7 * i));
    log(`weekly report: week ending ${row.weekEnd}`);
  }
};
