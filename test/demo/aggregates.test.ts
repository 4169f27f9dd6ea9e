import { afterEach, expect, test } from 'vitest';
import { PuzzleStats, WeeklyReport } from '../../schemas/aggregates.js';
import { seedDemoPuzzles } from '../../src/demo/puzzles.js';
import { seedDemoReports } from '../../src/demo/reports.js';
import { seededRandom } from '../../src/demo/rng.js';
import { weeklyReports } from '../../src/store/schema/index.js';
import { getPuzzleStats } from '../../tools/aggregates/get_puzzle_stats.js';
import { getWeeklyReport } from '../../tools/aggregates/get_weekly_report.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { addGames, gameRow } from '../helpers/gameRows.js';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

async function seeded(seed: number) {
  const app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
  apps.push(app);
  const { user, token } = app.addUser();
  const demo = { store: app.deps.store, clock: app.clock, user, rng: seededRandom(seed), games: 500, log: () => {} };
  addGames(app.deps.store, app.clock, [
    gameRow(user.id, { playedAt: '2026-11-10T10:00:00.000Z', result: 'win', opponentRating: 1500, userRating: 1500, ratingDelta: 8 }),
    gameRow(user.id, { playedAt: '2026-11-12T10:00:00.000Z', result: 'loss', opponentRating: 1450, userRating: 1508, ratingDelta: -8 }),
  ]);
  await seedDemoPuzzles(demo);
  await seedDemoReports(demo);
  return { app, token };
}

test('demo puzzles: deterministic for a seed, and get_puzzle_stats has something to say', async () => {
  const a = await seeded(7);
  const b = await seeded(7);
  const sa = PuzzleStats.parse((await a.app.call(getPuzzleStats, {}, a.token)).body);
  const sb = PuzzleStats.parse((await b.app.call(getPuzzleStats, {}, b.token)).body);
  expect(sa).toEqual(sb);
  expect(sa.summary.attempts).toBeGreaterThan(100);
  expect(sa.volume.bucket).toBe('week'); // 150 days of history
  expect(sa.ratings.siteB.current).not.toBeNull();
  expect(sa.ratings.siteB.pointsDownsampled).toBe(true);
  expect(sa.ratings.siteA.peak).toBeGreaterThanOrEqual(1900);
});

test('demo reports: two frozen weeks, the newest returned', async () => {
  const { app, token } = await seeded(3);
  expect(app.deps.store.db.select().from(weeklyReports).all().map((r) => r.weekEnd).sort()).toEqual(['2026-11-06', '2026-11-13']);
  const r = WeeklyReport.parse((await app.call(getWeeklyReport, {}, token)).body);
  // Week 2026-11-07 .. 2026-11-13 holds both games: W then L
  expect(r.weekEnd).toBe('2026-11-13');
  expect(r.sections.siteA.results).toMatchObject({ win: 1, loss: 1 });
  expect(r.puzzles.attempts).toBeGreaterThan(0);
});
