import type { Command } from 'commander';
import { publicBaseUrl } from '../services/common/index.js';
import { generateReport, isFriday, lastClosedWeekEnd, payloadOf } from '../services/reports/index.js';
import { fail, requireAccount, storeOptions, withApp, type StoreOptions } from './common.js';

/** `report generate [--week-ending YYYY-MM-DD]`: freezes a weekly report now (or shows the frozen one). */
export function registerReportCommands(program: Command): void {
  const report = program.command('report').description('weekly reports');
  storeOptions(
    report
      .command('generate')
      .description('generate the weekly report of the last closed week (Saturday to Friday, UTC), or of the week ending the given Friday')
      .option('--week-ending <date>', 'the Friday (YYYY-MM-DD) ending the week; default the last closed week'),
  ).action(async (opts: StoreOptions & { weekEnding?: string }) => {
    await withApp(opts, (deps) => {
      const user = requireAccount(deps, opts);
      const now = deps.clock.now();
      const weekEnd = opts.weekEnding ?? lastClosedWeekEnd(now);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(weekEnd) || Number.isNaN(Date.parse(weekEnd))) fail(`--week-ending: expected a date as YYYY-MM-DD, got ${weekEnd}`);
      if (!isFriday(weekEnd)) fail(`--week-ending: ${weekEnd} is not a Friday (weeks end on Fridays, UTC)`);
      if (weekEnd > lastClosedWeekEnd(now)) fail(`the week ending ${weekEnd} has not closed yet (it closes at the end of that Friday, UTC)`);
      const { row, created } = generateReport(deps.store, deps.clock, user.id, weekEnd);
      const payload = payloadOf(deps.store, row, publicBaseUrl(deps.config));
      console.error(created ? `generated the report of the week ${payload.weekStart} to ${payload.weekEnd}` : `the report of the week ending ${weekEnd} was already frozen at ${row.generatedAt}`);
      console.log(payload.shareUrl);
    });
  });
}
