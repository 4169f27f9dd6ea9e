import { afterEach, describe, expect, test } from 'vitest';
import { calculateEcfRatingChange } from '../../tools/fed/calculate_ecf_rating_change.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(async () => app?.close());

describe('calculate_ecf_rating_change (public, no token)', () => {
  test('short forms 1|=|0 and w|d|l read like win|draw|loss; level opponents: W = We = 1.5, change 0', async () => {
    app = makeTestApp();
    const a = await app.call(calculateEcfRatingChange, { currentRating: 1800, games: '1800 1, 1800 =, 1800 0' });
    const b = await app.call(calculateEcfRatingChange, { currentRating: 1800, games: '1800 w,1800 d , 1800l' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const body = a.body as { games: Array<{ result: string }>; change: number; score: number; caveats: string[] };
    expect(body.games.map((g) => g.result)).toEqual(['win', 'draw', 'loss']);
    expect((b.body as typeof body).games.map((g) => g.result)).toEqual(['win', 'draw', 'loss']);
    expect(body.score).toBe(1.5);
    expect(body.change).toBe(0);
    expect(body.caveats).toHaveLength(3);
    expect(body.caveats.join(' ')).toMatch(/not an official/);
    expect(body.caveats.join(' ')).toMatch(/fewer than 10/);
    expect(body.caveats.join(' ')).toMatch(/adjustment is treated as zero/i);
  });

  test('gamesThisMonth divides the 700 total: one win at level with 40 games in the month → K = 17.5, +8.75', async () => {
    app = makeTestApp();
    const r = await app.call(calculateEcfRatingChange, { currentRating: 1700, games: '1700 win', gamesThisMonth: 40 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ k: 17.5, kMax: 17.5, change: 8.75, newRating: 1709, monthlyCapApplied: true, gamesInMonth: 40 });
  });

  test('a bad entry is named by position and text', async () => {
    app = makeTestApp();
    const r = await app.call(calculateEcfRatingChange, { currentRating: 1800, games: '1850 w, 19x0 d, 1700 l' });
    expect(r.status).toBe(400);
    expect((r.body as { error: string }).error).toContain('entry 2 "19x0 d"');
    const r2 = await app.call(calculateEcfRatingChange, { currentRating: 1800, games: '1850 w, 1900 maybe' });
    expect((r2.body as { error: string }).error).toContain('entry 2 "1900 maybe"');
    const r3 = await app.call(calculateEcfRatingChange, { currentRating: 1800, games: '1850 w,' });
    expect(r3.status).toBe(400);
    expect((r3.body as { error: string }).error).toContain('entry 2 ""');
  });

  test('more than 100 games → 400; exactly 100 is fine', async () => {
    app = makeTestApp();
    const hundred = Array.from({ length: 100 }, () => '1800 d').join(',');
    expect((await app.call(calculateEcfRatingChange, { currentRating: 1800, games: hundred })).status).toBe(200);
    const r = await app.call(calculateEcfRatingChange, { currentRating: 1800, games: `${hundred},1800 d` });
    expect(r.status).toBe(400);
    expect((r.body as { error: string }).error).toMatch(/at most 100/);
  });

  test('gamesThisMonth below the games listed is contradictory → 400', async () => {
    app = makeTestApp();
    const r = await app.call(calculateEcfRatingChange, { currentRating: 1800, games: '1800 w, 1800 w', gamesThisMonth: 1 });
    expect(r.status).toBe(400);
  });
});
