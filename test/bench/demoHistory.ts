import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppDeps, closeAppDeps } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { seedDemo } from '../../src/demo/index.js';
import { fullGameMoves } from '../../src/services/games/gameMoves.js';
import { games } from '../../src/store/schema/index.js';

/** The demo owner's games (seed 7, `n` games), oldest first, as move lists: for the position reuse measure. */
export async function demoHistory(n: number): Promise<Array<{ startFen: string; movesUci: string[] }>> {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-bench-demo-'));
  try {
    const deps = createAppDeps(loadConfig({ dataDir: dir }, { CFP_RATE_LIMITS: 'off' }));
    await seedDemo(deps, { games: n, seed: 7, log: () => {} });
    const rows = deps.store.db.select().from(games).orderBy(games.playedAt).all();
    const out = rows.flatMap((r) => {
      const m = fullGameMoves(deps.store, r);
      return m && m.movesUci.length ? [{ startFen: m.startFen, movesUci: [...m.movesUci] }] : [];
    });
    await closeAppDeps(deps);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
