import { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { registerReportCommands } from '../../src/cli/report.js';
import { systemClock } from '../../src/clock.js';
import { createUser } from '../../src/services/accounts/accounts.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { weeklyReports } from '../../src/store/schema/index.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test('report generate --week-ending freezes that week and prints its share URL; again prints the same', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-cli-'));
  dirs.push(dir);
  const store = openStore(storeFile(dir));
  createUser(store, systemClock, { displayName: 'Owner', email: 'owner@example.test' });
  store.close();
  const out: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const run = async () => {
    const program = new Command().exitOverride();
    registerReportCommands(program);
    await program.parseAsync(['report', 'generate', '--data-dir', dir, '--week-ending', '2020-01-03'], { from: 'user' });
  };
  await run();
  await run();
  expect(out).toHaveLength(2);
  expect(out[0]).toMatch(/^https?:\/\/.+\/share\/reports\/[A-Za-z0-9_-]{43}$/);
  expect(out[1]).toBe(out[0]);
  const check = openStore(storeFile(dir));
  expect(check.db.select().from(weeklyReports).all().map((r) => [r.weekStart, r.weekEnd])).toEqual([['2019-12-28', '2020-01-03']]);
  check.close();
});
