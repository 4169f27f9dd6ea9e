import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppDeps, closeAppDeps } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { seedDemo } from '../../src/demo/index.js';
import { packageRoot } from '../../src/paths.js';
import { openStore, storeFile } from '../../src/store/db.js';

/**
 * Seeding the demo pool (2,000 games played move by move, with their study, coaching and review
 * rows) is the slow part of every HTTP bench, so it is kept between runs in the OS temp folder,
 * keyed by the code that builds it (the demo seeders and the game writer): any change to those
 * builds it again (later migrations apply when a copy is opened). CFP_BENCH_FRESH=1 forces a rebuild.
 */
function poolKey(pool: number): string {
  const h = createHash('sha256').update(String(pool));
  const files = [
    ...readdirSync(join(packageRoot, 'src/demo')).map((f) => join('src/demo', f)),
    'src/services/games/gameWriter.ts',
  ].sort();
  for (const f of files) h.update(f).update(readFileSync(join(packageRoot, f)));
  return h.digest('hex').slice(0, 16);
}

async function demoPool(pool: number): Promise<{ file: string; token: string; userId: string }> {
  const dir = join(tmpdir(), 'cfp-bench-cache', `pool-${pool}-${poolKey(pool)}`);
  const meta = join(dir, 'owner.json');
  if (process.env.CFP_BENCH_FRESH !== '1' && existsSync(meta)) {
    return { file: storeFile(dir), ...(JSON.parse(readFileSync(meta, 'utf8')) as { token: string; userId: string }) };
  }
  rmSync(dir, { recursive: true, force: true });
  const building = mkdtempSync(join(tmpdir(), 'cfp-bench-pool-'));
  const deps = createAppDeps(loadConfig({ dataDir: building }, { CFP_RATE_LIMITS: 'off' }));
  const { user, token } = await seedDemo(deps, { games: pool, seed: 7, log: () => {} });
  await closeAppDeps(deps);
  const store = openStore(storeFile(building));
  store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  writeFileSync(join(building, 'owner.json'), JSON.stringify({ token, userId: user.id }), { mode: 0o600 });
  mkdirSync(join(tmpdir(), 'cfp-bench-cache'), { recursive: true });
  renameSync(building, dir);
  return { file: storeFile(dir), token, userId: user.id };
}

/**
 * A data dir holding one demo owner with `games` games. Playing 100,000 games move by move would
 * take half an hour, so a pool of distinct demo games (real moves) is copied in SQL with fresh ids,
 * source ids, dates spread over the same span and shuffled opponents until the count is reached.
 */
export async function buildBenchStore(games: number, pool = 2000): Promise<{ dataDir: string; token: string; userId: string }> {
  const base = Math.min(games, pool);
  const { file, token, userId } = await demoPool(base);
  const dataDir = mkdtempSync(join(tmpdir(), `cfp-bench-${games}-`));
  copyFileSync(file, storeFile(dataDir));
  const store = openStore(storeFile(dataDir));
  // Every column copied as it is but these, so a column added by a later migration is copied too.
  const fresh: Record<string, string> = {
    id: 'lower(hex(randomblob(16)))',
    source_id: "source_id || '-copy' || :round",
    played_at: "strftime('%Y-%m-%dT%H:%M:%fZ', played_at, printf('-%d minutes', (:round * 7919 + rowid * 13) % 1051200))",
    opponent: "opponent || '_' || (:round % 97)",
  };
  const columns = (store.sqlite.prepare('PRAGMA table_info(games)').all() as Array<{ name: string }>).map((c) => c.name);
  const copy = store.sqlite.prepare(`
    INSERT INTO games (${columns.join(', ')}) SELECT ${columns.map((c) => fresh[c] ?? c).join(', ')}
    FROM games WHERE user_id = :user AND source_id NOT LIKE '%-copy%' LIMIT :n`);
  store.sqlite.transaction(() => {
    for (let round = 1, have = base; have < games; round += 1) {
      const n = Math.min(base, games - have);
      have += copy.run({ round, user: userId, n }).changes;
    }
  })();
  store.sqlite.pragma('optimize');
  store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  return { dataDir, token, userId };
}
