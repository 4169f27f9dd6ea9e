import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerReviewCommand } from '../../src/cli/review.js';
import { createAppDeps, closeAppDeps } from '../../src/app.js';
import { parsePgn } from '../../src/chess/pgn.js';
import { fixedClock, systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createUser } from '../../src/services/accounts/accounts.js';
import { insertGames, movesColumns } from '../../src/services/games/gameWriter.js';
import { bulkReview } from '../../src/services/review/bulk.js';
import { openStore, storeFile, type Store } from '../../src/store/db.js';
import { analyses, games, reviewJobs } from '../../src/store/schema/index.js';
import { LIMITS_FILE } from '../../src/limits/limiter.js';
import { Database } from '../../src/store/sqlite.js';

// Stand-in engines (test/fixtures/uci): one answers every search at once; one dies on every search.
const quick = fileURLToPath(new URL('../fixtures/uci/hanging-engine.mjs', import.meta.url));
const crashing = fileURLToPath(new URL('../fixtures/uci/crashing-engine.mjs', import.meta.url));

const PGNS = ['1. e4 e5 2. Nf3 Nc6 *', '1. d4 d5 2. c4 e6 *', '1. c4 e5 2. Nc3 Nf6 *', '1. Nf3 d5 2. g3 Nf6 *'];
let dir: string;
let out: string[];
let err: string[];
let userId: string;

function seed(store: Store) {
  const user = createUser(store, systemClock, { displayName: 'Rowan', email: 'rowan@example.test' });
  userId = user.id;
  insertGames(
    store,
    systemClock,
    PGNS.map((pgn, i) => ({
      game: {
        userId: user.id, provider: i === 3 ? 'siteA' : 'siteB', sourceId: `s${i}`, playedAt: `2026-10-0${i + 1}T12:00:00Z`, colour: 'white', result: 'draw',
        opponent: 'Them', timeClass: 'blitz', rated: true, sourceUrl: 'https://example.test', ...movesColumns(parsePgn(pgn), `h${i}`), pgnHash: null,
      },
    })),
  );
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cfp-review-'));
  const store = openStore(storeFile(dir));
  seed(store);
  store.close();
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  vi.stubEnv('CFP_ENGINE_WORKERS', '1');
  vi.stubEnv('CFP_ENGINE_NODES', '1000');
  process.exitCode = undefined;
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.exitCode = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function run(...args: string[]) {
  const program = new Command().exitOverride();
  registerReviewCommand(program);
  await program.parseAsync(['node', 'chess-footprint', 'review', ...args, '--data-dir', dir]);
}

/** Source ids of the games the owner now has reviewed, sorted. */
function reviewedSourceIds(): string[] {
  const store = openStore(storeFile(dir));
  try {
    const keys = new Set(store.db.select().from(analyses).all().map((r) => r.movesKey));
    return store.db.select().from(games).all().filter((g) => keys.has(g.movesKey!)).map((g) => g.sourceId).sort();
  } finally {
    store.close();
  }
}

describe('review CLI (bulk review)', () => {
  it('reviews the newest games first within --limit and --provider, shows progress, and resumes with the rest', async () => {
    await run('--limit', '2', '--provider', 'siteB', '--engine', quick);
    expect(out).toEqual(['2 reviewed, 0 failed, 0 not started']);
    expect(err.join('')).toMatch(/review \[#+\] 2\/2 \(0 failed\)/);
    // siteB games, newest first: s2 (Oct 3) and s1 (Oct 2); s3 is siteA.
    expect(reviewedSourceIds()).toEqual(['s1', 's2']);
    expect(process.exitCode).toBeUndefined();
    out.length = 0;
    await run('--engine', quick);
    expect(out).toEqual(['2 reviewed, 0 failed, 0 not started']);
    expect(reviewedSourceIds()).toEqual(['s0', 's1', 's2', 's3']);
    // No API allowance is touched: the local owner is not a caller of the API.
    const limits = join(dir, LIMITS_FILE);
    if (existsSync(limits)) {
      const db = new Database(limits, { readonly: true });
      expect(db.prepare("SELECT key FROM rate_buckets WHERE key LIKE 'review:%'").all()).toEqual([]);
      db.close();
    }
    const store = openStore(storeFile(dir));
    expect(store.db.select().from(reviewJobs).all().every((j) => j.status === 'complete')).toBe(true);
    store.close();
  }, 60_000);

  it('--since keeps later games only; a failing engine makes the exit code non-zero, naming the failure', async () => {
    await run('--since', '2026-10-04', '--engine', crashing);
    expect(out).toEqual(['0 reviewed, 1 failed, 0 not started']);
    expect(err.join('')).toMatch(/failed: position 0 failed twice/);
    expect(process.exitCode).toBe(1);
  }, 60_000);

  it('stopped after the first game (Ctrl-C): the finished review is kept, unstarted jobs are withdrawn', async () => {
    const deps = createAppDeps(loadConfig({ dataDir: dir, enginePath: quick }), { clock: fixedClock('2026-11-20T12:00:00Z') });
    const stop = new AbortController();
    const p = await bulkReview({ ...deps, reviews: deps.runtime.reviews }, userId, {}, (pr) => pr.done === 1 && stop.abort(), stop.signal);
    expect(p).toMatchObject({ done: 1, failed: 0, total: 4 });
    expect(deps.store.db.select().from(reviewJobs).all().map((j) => j.status)).toEqual(['complete']);
    await closeAppDeps(deps);
    expect(reviewedSourceIds()).toEqual(['s3']);
  }, 60_000);
});
