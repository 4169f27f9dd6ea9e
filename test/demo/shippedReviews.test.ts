import { afterEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { seedDemo } from '../../src/demo/index.js';
import { DEMO_REVIEWS, demoReviewCandidates } from '../../src/demo/reviews.js';
import { shippedReviews } from '../../src/demo/shippedReviews.js';
import { EnginePool } from '../../src/engine/pool.js';
import { ownerReview } from '../../src/services/review/records.js';
import { reviewJobs } from '../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

// data/demo/reviews.json.gz: the engine's output for the demo games `serve --demo` reviews, written by
// `npm run demo:reviews` (test/golden/demoReviews.ts).
const SHIPPED = shippedReviews();

let app: TestApp;
let pool: EnginePool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
  await app?.close();
});

describe("the demo's shipped reviews", { timeout: 300_000 }, () => {
  test('seeding the default demo stores them as finished reviews at once and queues only the games not shipped', async () => {
    expect(SHIPPED.size).toBeGreaterThanOrEqual(1);
    expect(SHIPPED.size).toBeLessThanOrEqual(DEMO_REVIEWS);
    app = makeTestApp();
    const { user } = await seedDemo(app.deps, { log: () => {} }); // serve --demo's defaults: 500 games, seed 1
    const picked = demoReviewCandidates({ store: app.deps.store, user });
    expect(picked).toHaveLength(DEMO_REVIEWS);
    // The file holds the first candidates, in the seeder's order (test/golden/demoReviews.ts reviews them in turn).
    expect([...SHIPPED.keys()]).toEqual(picked.slice(0, SHIPPED.size).map((c) => c.key));
    for (const c of picked.slice(0, SHIPPED.size)) {
      const review = ownerReview(app.deps.store, user.id, c.key)!;
      expect(review.engine).toMatch(/^Stockfish /);
      expect(review.derivation.plies).toHaveLength(c.movesUci.length);
    }
    const jobs = app.deps.store.db.select().from(reviewJobs).all();
    expect(jobs.map((j) => j.movesKey).sort()).toEqual(picked.slice(SHIPPED.size).map((c) => c.key).sort());
  });

  test("a shipped review is the engine's own output: its first moves searched again at its recorded settings give the same lines", async () => {
    const review = [...SHIPPED.values()].sort((a, b) => a.movesUci.length - b.movesUci.length)[0];
    const plies = 6;
    const engine = loadConfig({ dataDir: '/nonexistent' }, {}).engine;
    // Recorded: build (full or lite), nodes per position, MultiPV and search mode (each position from a clean hash),
    // so the first positions do not depend on the rest of the game.
    expect(review.engine.build === 'full' || review.engine.build === 'lite').toBe(true);
    // The deeper look (budget.deeper) too: which of positions 0..plies−1 it searches again depends only on the plies
    // into and out of them, all inside the prefix; the prefix's last position lacks the ply out of it, so it is left out.
    pool = new EnginePool({
      path: null,
      build: review.engine.build as 'full' | 'lite',
      threads: 1,
      hashMb: engine.hashMb,
      multiPv: review.budget.multiPv,
      size: 1,
      nodesPerPosition: review.budget.nodesPerPosition,
      deeper: review.budget.deeper,
    });
    const again = await pool.analyse(review.startFen, review.movesUci.slice(0, plies), () => review.analysedAt, { engines: 1 });
    expect(again.engine).toEqual(review.engine);
    expect(again.budget).toEqual(review.budget);
    expect(again.positions.slice(0, plies)).toEqual(review.positions.slice(0, plies));
  });
});
