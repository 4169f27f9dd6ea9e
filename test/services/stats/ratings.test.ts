import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { RatingLines } from '../../../schemas/aggregates.js';
import { downsample } from '../../../src/services/stats/ratings.js';
import { ratingPoints } from '../../../src/store/schema/index.js';
import { getRatingProgress } from '../../../tools/aggregates/get_rating_progress.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { addGames, gameRow } from '../../helpers/gameRows.js';

let app: TestApp;
let token: string;
let userId: string;

function points(rows: Array<{ provider: 'siteA' | 'siteB' | 'fed'; series: string; date: string; rating: number }>) {
  app.deps.store.db.insert(ratingPoints).values(rows.map((r) => ({ ...r, userId }))).run();
}

async function lines(input: Record<string, string> = {}) {
  const out = await app.call(getRatingProgress, input, token);
  expect(out.status).toBe(200);
  return RatingLines.parse(out.body);
}

beforeEach(() => {
  app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
  const u = app.addUser();
  token = u.token;
  userId = u.user.id;
});
afterEach(() => app.close());

describe('get_rating_progress', () => {
  beforeEach(() => {
    addGames(app.deps.store, app.clock, [
      // siteA blitz: before the 30d window (from 2026-10-21) ends at 1500 + 10 = 1510
      gameRow(userId, { playedAt: '2026-10-01T10:00:00.000Z', provider: 'siteA', timeClass: 'blitz', result: 'win', userRating: 1500, ratingDelta: 10 }),
      // two games on 11-05: after 1518, then 1512 (the day's last) ; 11-06: 1512 + 7 = 1519
      gameRow(userId, { playedAt: '2026-11-05T10:00:00.000Z', provider: 'siteA', timeClass: 'blitz', result: 'win', userRating: 1510, ratingDelta: 8 }),
      gameRow(userId, { playedAt: '2026-11-05T15:00:00.000Z', provider: 'siteA', timeClass: 'blitz', result: 'loss', userRating: 1518, ratingDelta: -6 }),
      gameRow(userId, { playedAt: '2026-11-06T10:00:00.000Z', provider: 'siteA', timeClass: 'blitz', result: 'win', userRating: 1512, ratingDelta: 7 }),
      // siteA rapid only before the window
      gameRow(userId, { playedAt: '2026-09-15T10:00:00.000Z', provider: 'siteA', timeClass: 'rapid', result: 'win', userRating: 1400, ratingDelta: 9 }),
      // over the board: no change recorded, the reading is the rating itself
      gameRow(userId, { playedAt: '2026-11-03T19:00:00.000Z', provider: 'fed', timeClass: 'standard', result: 'draw', userRating: 1750 }),
    ]);
    points([
      { provider: 'siteB', series: 'classical', date: '2026-11-01', rating: 1700 },
      { provider: 'siteB', series: 'classical', date: '2026-11-08', rating: 1690 },
      { provider: 'siteB', series: 'puzzle', date: '2026-11-01', rating: 2000 },
      { provider: 'fed', series: 'standard', date: '2026-09-01', rating: 1740 },
      { provider: 'fed', series: 'standard', date: '2026-11-15', rating: 1762 },
    ]);
  });

  test('30d: one line per provider and time class in the window, start seeded from before it', async () => {
    const r = await lines({ range: '30d' });
    expect(r.window).toEqual({ from: '2026-10-21', to: null });
    expect(r.lines).toEqual([
      // seeded from 1510 (2026-10-01); end 1519; delta 9
      { provider: 'siteA', timeClass: 'blitz', points: [{ date: '2026-11-05', rating: 1512 }, { date: '2026-11-06', rating: 1519 }], pointsDownsampled: false, start: 1510, end: 1519, delta: 9, seededFromBefore: true },
      // nothing before: start is the first reading 1700; 1690 − 1700 = −10; the puzzle series is not a playing rating
      { provider: 'siteB', timeClass: 'standard', points: [{ date: '2026-11-01', rating: 1700 }, { date: '2026-11-08', rating: 1690 }], pointsDownsampled: false, start: 1700, end: 1690, delta: -10, seededFromBefore: false },
      // seeded from the published 1740 (2026-09-01); game reading 1750, published 1762 → delta 22
      { provider: 'fed', timeClass: 'standard', points: [{ date: '2026-11-03', rating: 1750 }, { date: '2026-11-15', rating: 1762 }], pointsDownsampled: false, start: 1740, end: 1762, delta: 22, seededFromBefore: true },
    ]);
  });

  test('a line with no reading in the window is absent; 1y brings it in', async () => {
    expect((await lines({ range: '30d' })).lines.some((l) => l.timeClass === 'rapid')).toBe(false);
    const rapid = (await lines()).lines.find((l) => l.provider === 'siteA' && l.timeClass === 'rapid');
    expect(rapid).toMatchObject({ start: 1409, end: 1409, delta: 0, points: [{ date: '2026-09-15', rating: 1409 }] });
  });

  test('filters by provider and time class', async () => {
    expect((await lines({ range: '30d', provider: 'fed' })).lines.map((l) => l.provider)).toEqual(['fed']);
    expect((await lines({ range: '30d', timeClass: 'standard' })).lines.map((l) => l.provider)).toEqual(['siteB', 'fed']);
  });
});

test('the seed is the latest reading before the window, across every raw class of the time class', async () => {
  addGames(app.deps.store, app.clock, [
    // siteA bullet before the window: 1400 + 5 = 1405, then 1405 − 20 = 1385 (the later one seeds)
    gameRow(userId, { playedAt: '2026-10-01T10:00:00.000Z', provider: 'siteA', timeClass: 'bullet', result: 'win', userRating: 1400, ratingDelta: 5 }),
    gameRow(userId, { playedAt: '2026-10-05T10:00:00.000Z', provider: 'siteA', timeClass: 'ultraBullet', result: 'loss', userRating: 1405, ratingDelta: -20 }),
    gameRow(userId, { playedAt: '2026-11-10T10:00:00.000Z', provider: 'siteA', timeClass: 'bullet', result: 'win', userRating: 1385, ratingDelta: 3 }),
  ]);
  // lichess classical and correspondence are both standard: the later (correspondence 1750) seeds
  points([
    { provider: 'siteB', series: 'classical', date: '2026-10-01', rating: 1800 },
    { provider: 'siteB', series: 'correspondence', date: '2026-10-10', rating: 1750 },
    { provider: 'siteB', series: 'classical', date: '2026-11-10', rating: 1760 },
  ]);
  const r = await lines({ range: '30d' });
  expect(r.lines.map((l) => [l.provider, l.timeClass, l.start, l.end, l.delta])).toEqual([
    ['siteA', 'bullet', 1385, 1388, 3],
    ['siteB', 'standard', 1750, 1760, 10],
  ]);
});

describe('downsampling', () => {
  test('100 daily points keep 60: first, last and evenly spaced between', async () => {
    const start = Date.parse('2026-08-01T00:00:00Z');
    points(Array.from({ length: 100 }, (_, i) => ({ provider: 'siteB' as const, series: 'blitz', date: new Date(start + i * 86_400_000).toISOString().slice(0, 10), rating: 1500 + i })));
    const [line] = (await lines()).lines;
    expect(line.points).toHaveLength(60);
    expect(line.pointsDownsampled).toBe(true);
    // index round(i × 99 / 59): i=0 → 0, i=1 → round(1.678) = 2, i=30 → round(50.34) = 50, i=59 → 99
    expect(line.points[0]).toEqual({ date: '2026-08-01', rating: 1500 });
    expect(line.points[1].rating).toBe(1502);
    expect(line.points[30].rating).toBe(1550);
    expect(line.points[59]).toEqual({ date: '2026-11-08', rating: 1599 }); // 2026-08-01 + 99 days
    expect([line.start, line.end, line.delta]).toEqual([1500, 1599, 99]);
  });

  test('60 points stay as they are; 61 are thinned', () => {
    const sixty = Array.from({ length: 60 }, (_, i) => i);
    expect(downsample(sixty)).toEqual({ points: sixty, downsampled: false });
    const r = downsample(Array.from({ length: 61 }, (_, i) => i));
    expect(r.downsampled).toBe(true);
    expect(r.points).toHaveLength(60);
    expect(new Set(r.points).size).toBe(60);
    expect([r.points[0], r.points[59]]).toEqual([0, 60]);
  });
});
