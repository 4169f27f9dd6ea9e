import { afterEach, expect, test } from 'vitest';
import { seededRandom } from '../../src/demo/rng.js';
import { DEMO_REVIEWS, seedReviews } from '../../src/demo/reviews.js';
import { parsePgn } from '../../src/chess/pgn.js';
import { insertGames, movesColumns } from '../../src/services/games/gameWriter.js';
import { reviewJobs } from '../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(async () => app?.close());

test('queues real reviews (jobs, no numbers) for the most recent games with full moves, once', async () => {
  app = makeTestApp();
  const { user } = app.addUser();
  // Six distinct Ruy Lopez games (different 6th moves), then two copies of the first: seven sequences at most.
  const sixth = ['Re1 b5', 'd3 d6', 'c3 b5', 'h3 d6', 'Nc3 b5', 'd4 b5', 'Re1 b5', 'Re1 b5'];
  const batch = sixth.map((m, i) => {
    const parsed = parsePgn(`1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. ${m} *`);
    return {
      game: {
        userId: user.id, provider: 'siteB' as const, sourceId: `s${i}`, playedAt: `2026-10-1${i}T00:00:00Z`, colour: 'white' as const,
        result: 'draw' as const, opponent: 'X', timeClass: 'blitz', rated: true, sourceUrl: 'https://example.test', ...movesColumns(parsed, 'h'), pgnHash: null,
      },
    };
  });
  // A game without moves (the newest) is never queued.
  batch.push({ game: { ...batch[0].game, sourceId: 'otb', sanMoves: null, movesSource: null, movesKey: null, playedAt: '2026-10-30T00:00:00Z' } as never });
  insertGames(app.deps.store, app.deps.clock, batch);
  const demo = { store: app.deps.store, clock: app.deps.clock, user, rng: seededRandom(1), games: 10, log: () => {} };
  await seedReviews(demo);
  const jobs = app.deps.store.db.select().from(reviewJobs).all();
  // Newest first: s7 and s6 repeat s0's moves, so s7, s5, s4, s3, s2 are queued (one job per sequence).
  expect(DEMO_REVIEWS).toBe(5);
  expect(jobs.map((j) => batch.findIndex((b) => b.game.movesKey === j.movesKey)).sort()).toEqual([0, 2, 3, 4, 5]);
  expect(jobs.every((j) => j.status === 'queued')).toBe(true);
  await seedReviews(demo);
  expect(app.deps.store.db.select().from(reviewJobs).all()).toHaveLength(jobs.length);
});
