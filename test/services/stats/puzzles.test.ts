import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { PuzzleStats } from '../../../schemas/aggregates.js';
import { bucketFor } from '../../../src/services/stats/puzzles.js';
import { puzzleAttempts, ratingPoints } from '../../../src/store/schema/index.js';
import { getPuzzleStats } from '../../../tools/aggregates/get_puzzle_stats.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let app: TestApp;
let token: string;
let userId: string;
beforeEach(() => {
  app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
  ({ token, user: { id: userId } } = app.addUser());
});
afterEach(() => app.close());

async function stats() {
  const out = await app.call(getPuzzleStats, {}, token);
  expect(out.status).toBe(200);
  return PuzzleStats.parse(out.body);
}

test('a player without puzzles gets empty figures, never invented ones', async () => {
  const s = await stats();
  expect(s.summary).toMatchObject({ attempts: 0, solved: 0, winRate: null, averagePuzzleRating: null });
  expect(s.volume).toEqual({ bucket: 'day', points: [{ period: '2026-11-20', attempts: 0, solved: 0 }] });
  expect(s.ratings).toEqual({ siteB: { current: null, points: [], pointsDownsampled: false }, siteA: { peak: null, peakDate: null, peakOnly: true } });
});

test('12-week summary, weekly volume, lichess series and chess.com peak', async () => {
  const a = (attemptedAt: string, win: boolean, puzzleRating: number | null, u = userId) =>
    ({ userId: u, provider: 'siteB' as const, puzzleId: `p${attemptedAt}${puzzleRating}`, attemptedAt, win, puzzleRating });
  app.deps.store.db.insert(puzzleAttempts).values([
    a('2026-08-28T10:00:00.000Z', true, 1500), // one day before the 12 weeks
    a('2026-08-29T10:00:00.000Z', false, 1600), // first day of the 12 weeks (2026-11-20 − 83 days)
    a('2026-11-19T10:00:00.000Z', true, 1700),
    a('2026-11-19T11:00:00.000Z', true, 1800),
    a('2026-11-19T12:00:00.000Z', false, null),
    a('2026-11-20T11:00:00.000Z', true, 1900),
  ]).run();
  const other = app.addUser();
  app.deps.store.db.insert(puzzleAttempts).values(a('2026-11-20T10:00:00.000Z', false, 1000, other.user.id)).run();
  app.deps.store.db.insert(ratingPoints).values([
    { userId, provider: 'siteB', series: 'puzzle', date: '2026-11-01', rating: 1850 },
    { userId, provider: 'siteB', series: 'puzzle', date: '2026-11-10', rating: 1900 },
    { userId, provider: 'siteA', series: 'tactics-highest', date: '2020-05-01', rating: 2100 },
    { userId, provider: 'siteA', series: 'tactics-highest', date: '2024-01-01', rating: 2300 },
    { userId, provider: 'siteA', series: 'tactics-lowest', date: '2024-01-01', rating: 900 },
  ]).run();
  const s = await stats();
  // Inside the 12 weeks: L, W, W, L, W → 3 / 5 = 60 %; rated 1600, 1700, 1800, 1900 → 1750
  expect(s.summary).toEqual({ from: '2026-08-29', to: '2026-11-20', attempts: 5, solved: 3, winRate: 60, averagePuzzleRating: 1750 });
  // History 2026-08-28 .. 2026-11-20 = 85 days → weeks (Mondays 2026-08-24 .. 2026-11-16: 13 buckets)
  expect(s.window).toEqual({ from: '2026-08-28', to: '2026-11-20' });
  expect(s.volume.bucket).toBe('week');
  expect(s.volume.points).toHaveLength(13);
  expect(s.volume.points[0]).toEqual({ period: '2026-08-24', attempts: 2, solved: 1 });
  expect(s.volume.points[1]).toEqual({ period: '2026-08-31', attempts: 0, solved: 0 });
  expect(s.volume.points[12]).toEqual({ period: '2026-11-16', attempts: 4, solved: 3 });
  expect(s.ratings.siteB).toEqual({ current: 1900, points: [{ date: '2026-11-01', rating: 1850 }, { date: '2026-11-10', rating: 1900 }], pointsDownsampled: false });
  expect(s.ratings.siteA).toEqual({ peak: 2300, peakDate: '2024-01-01', peakOnly: true });
  expect(s.ratings.siteA).not.toHaveProperty('current');
});

describe('volume bucket by span of history', () => {
  test.each([
    ['2026-11-01', '2026-12-01', 'day'], // 31 days
    ['2026-11-01', '2026-12-02', 'week'], // 32 days
    ['2026-01-01', '2026-07-01', 'week'], // 182 days
    ['2026-01-01', '2026-07-02', 'month'], // 183 days
  ])('%s .. %s → %s', (from, to, bucket) => {
    expect(bucketFor(from, to)).toBe(bucket);
  });
});
