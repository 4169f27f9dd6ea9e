import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppDeps } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { seedDemo } from '../../src/demo/index.js';
import { openStore, storeFile } from '../../src/store/db.js';

/**
 * A data dir holding one demo owner with `games` games. Playing 100,000 games move by move would
 * take half an hour, so a pool of distinct demo games (real moves) is copied in SQL with fresh ids,
 * source ids, dates spread over the same span and shuffled opponents until the count is reached.
 */
export async function buildBenchStore(games: number, pool = 2000): Promise<{ dataDir: string; token: string; userId: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), `cfp-bench-${games}-`));
  const deps = createAppDeps(loadConfig({ dataDir }, { CFP_RATE_LIMITS: 'off' }));
  const { user, token } = await seedDemo(deps, { games: Math.min(games, pool), seed: 7, log: () => {} });
  deps.store.close();
  const store = openStore(storeFile(dataDir));
  const base = Math.min(games, pool);
  const copy = store.sqlite.prepare(`
    INSERT INTO games SELECT
      lower(hex(randomblob(16))), user_id, provider, source_id || '-copy' || :round, 
      strftime('%Y-%m-%dT%H:%M:%fZ', played_at, printf('-%d minutes', (:round * 7919 + rowid * 13) % 1051200)),
      colour, result, opponent || '_' || (:round % 97), opponent_rating, user_rating, rating_delta, time_class, time_control,
      rated, eco, opening, event, moves_count, platform_accuracy, review_accuracy, source_url, san_moves, moves_source,
      moves_key, pgn_hash, clocks, version, created_at
    FROM games WHERE user_id = :user AND source_id NOT LIKE '%-copy%' LIMIT :n`);
  store.sqlite.transaction(() => {
    for (let round = 1, have = base; have < games; round += 1) {
      const n = Math.min(base, games - have);
      have += copy.run({ round, user: user.id, n }).changes;
    }
  })();
  store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  return { dataDir, token, userId: user.id };
}
