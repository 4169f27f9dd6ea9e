/**
 * `npm run demo:reviews`: reviews the demo games `serve --demo` picks (src/demo/reviews.ts demoReviewCandidates,
 * default seed and game count) with the service's engine at its configured settings (CFP_ENGINE_BUILD,
 * CFP_ENGINE_NODES, CFP_ENGINE_MULTIPV, CFP_ENGINE_HASH_MB; or CFP_STOCKFISH) through the service's engine pool, so
 * a review is reproducible from what it records, and writes the engine output to
 * data/demo/reviews.json.gz. Rerun it after a change to the engine or to how positions are searched: each review
 * records its engine and budget, so an older file stays valid until then. About 20 CPU seconds a game; the file is
 * rewritten after each game, so a run stopped part-way ships the games it finished (the seeder queues the rest).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createAppDeps } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { seedDemo } from '../../src/demo/index.js';
import { demoReviewCandidates } from '../../src/demo/reviews.js';
import { encodeShipped, SHIPPED_REVIEWS_FILE } from '../../src/demo/shippedReviews.js';
import { deeperLook, EnginePool } from '../../src/engine/pool.js';
import { openStore, storeFile } from '../../src/store/db.js';

const SEED = 1;
const GAMES = 500; // serve's --demo-games default

const dir = mkdtempSync(join(tmpdir(), 'cfp-demo-reviews-'));
const config = loadConfig({ dataDir: dir }, { ...process.env, CFP_RATE_LIMITS: 'off' });
const deps = createAppDeps(config, { store: openStore(storeFile(dir)) });
const pool = new EnginePool({ ...config.engine, size: 1, deeper: deeperLook(config.engine.deepNodes) });
try {
  const { user } = await seedDemo(deps, { games: GAMES, seed: SEED, log: () => {} });
  const picked = demoReviewCandidates({ store: deps.store, user });
  const reviews = [];
  mkdirSync(dirname(SHIPPED_REVIEWS_FILE), { recursive: true });
  const made = { command: 'npm run demo:reviews', seed: SEED, games: GAMES, engines: 1 as const };
  // Written after each game: a run stopped part-way keeps the games it finished (the seeder queues the others).
  for (const c of picked) {
    const t = Date.now();
    reviews.push(await pool.analyse(c.startFen, c.movesUci, () => new Date().toISOString(), { engines: 1 }));
    writeFileSync(SHIPPED_REVIEWS_FILE, gzipSync(encodeShipped({ made, reviews }), { level: 9 }));
    console.error(`reviewed ${c.row.sourceId} (${c.movesUci.length} plies) in ${((Date.now() - t) / 1000).toFixed(1)} s; ${reviews.length} in ${SHIPPED_REVIEWS_FILE}`);
  }
} finally {
  await pool.close();
  await deps.runtime.close();
  deps.store.close();
  rmSync(dir, { recursive: true, force: true });
}
