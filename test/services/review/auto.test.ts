import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createAppDeps } from '../../../src/app.js';
import { parsePgn } from '../../../src/chess/pgn.js';
import { fixedClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import type { AppDeps } from '../../../src/context.js';
import { createUser } from '../../../src/services/accounts/accounts.js';
import { insertGames, movesColumns } from '../../../src/services/games/gameWriter.js';
import { gameReviewSubject } from '../../../src/services/review/gameSubject.js';
import { requestReview } from '../../../src/services/review/reviewRequests.js';
import { autoReviewsToday, queueAutoReviews } from '../../../src/services/review/auto.js';
import { REVIEW_PRIORITY } from '../../../src/services/review/queue.js';
import { openStore, storeFile } from '../../../src/store/db.js';
import { games, reviewJobs } from '../../../src/store/schema/index.js';

const dirs: string[] = [];
const opened: AppDeps[] = [];
afterEach(async () => {
  for (const d of opened.splice(0)) {
    await d.runtime.close();
    d.store.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// The lite build at a tiny budget: the scheduling is under test, not the engine.
const env = { CFP_RATE_LIMITS: 'off', CFP_ENGINE_NODES: '1000', CFP_ENGINE_BUILD: 'lite', CFP_ENGINE_WORKERS: '1', CFP_AUTO_REVIEW: '2' };

function open(dir: string, clock: ReturnType<typeof fixedClock>): AppDeps {
  const deps = createAppDeps(loadConfig({ dataDir: dir }, env), { clock, store: openStore(storeFile(dir)) });
  opened.push(deps);
  return deps;
}

const PGNS = ['1. e4 e5 2. Nf3 *', '1. d4 d5 2. c4 *', '1. c4 e5 2. Nc3 *', '1. Nf3 d5 2. g3 *'];

/** Games played on the given days (newest last in the list), one PGN each. */
function addGames(deps: AppDeps, userId: string, days: string[], from = 0): void {
  insertGames(
    deps.store,
    deps.clock,
    days.map((day, i) => ({
      game: {
        userId, provider: 'siteB' as const, sourceId: `g${from + i}`, playedAt: `${day}T12:00:00Z`, colour: 'white' as const, result: 'draw' as const,
        opponent: 'Them', timeClass: 'blitz' as const, rated: true, sourceUrl: 'https://example.test', ...movesColumns(parsePgn(PGNS[from + i]), 'h'), pgnHash: null,
      },
    })),
  );
}

const jobsOf = (deps: AppDeps) => deps.store.db.select().from(reviewJobs).all();
const playedOf = (deps: AppDeps, gameId: string) => deps.store.db.select().from(games).all().find((g) => g.id === gameId)!.playedAt;

describe('CFP_AUTO_REVIEW: daily background reviews in serve', () => {
  test('is off by default and bounded', () => {
    expect(loadConfig({ dataDir: '/x' }, {}).autoReviewPerDay).toBe(0);
    expect(() => loadConfig({ dataDir: '/x' }, { CFP_AUTO_REVIEW: '1001' })).toThrow(/CFP_AUTO_REVIEW/);
    expect(() => loadConfig({ dataDir: '/x' }, { CFP_AUTO_REVIEW: '-1' })).toThrow(/CFP_AUTO_REVIEW/);
  });

  test('N=2 queues the 2 newest of 3 new games a day, the count survives a restart, the next day takes the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfp-auto-'));
    dirs.push(dir);
    const clock = fixedClock('2026-11-20T09:00:00Z');
    const first = open(dir, clock);
    const user = createUser(first.store, clock, { displayName: 'Owner', email: 'o@example.test' });
    addGames(first, user.id, ['2026-11-17', '2026-11-19', '2026-11-18']);

    expect(queueAutoReviews(first, 2)).toBe(2);
    const jobs = jobsOf(first);
    expect(jobs.map((j) => playedOf(first, j.subjectId).slice(0, 10)).sort()).toEqual(['2026-11-18', '2026-11-19']);
    expect(jobs.every((j) => j.priority === REVIEW_PRIORITY.auto)).toBe(true);
    // Later the same day: the day's share is spent, even after the jobs ran and the process restarted.
    while (await first.runtime.reviews.runOnce());
    expect(jobsOf(first).map((j) => j.status)).toEqual(['complete', 'complete']);
    expect(queueAutoReviews(first, 2)).toBe(0);
    await first.runtime.close();
    first.store.close();
    opened.splice(opened.indexOf(first), 1);

    clock.set('2026-11-20T23:59:59Z');
    const second = open(dir, clock);
    expect(autoReviewsToday(second.store, user.id, clock.now())).toBe(2);
    expect(queueAutoReviews(second, 2)).toBe(0);

    // A new UTC day: the one game left is queued (and only it: the others are reviewed).
    clock.set('2026-11-21T00:00:01Z');
    expect(autoReviewsToday(second.store, user.id, clock.now())).toBe(0);
    expect(queueAutoReviews(second, 2)).toBe(1);
    const third = jobsOf(second).find((j) => j.status === 'queued')!;
    expect(playedOf(second, third.subjectId).slice(0, 10)).toBe('2026-11-17');
    // Nothing left to review: the next tick queues nothing, though one of today's two is unused.
    expect(queueAutoReviews(second, 2)).toBe(0);
  });

  test('each owner has their own daily share', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfp-auto-'));
    dirs.push(dir);
    const clock = fixedClock('2026-11-20T09:00:00Z');
    const deps = open(dir, clock);
    const a = createUser(deps.store, clock, { displayName: 'A', email: 'a@example.test' });
    const b = createUser(deps.store, clock, { displayName: 'B', email: 'b@example.test' });
    addGames(deps, a.id, ['2026-11-17', '2026-11-18', '2026-11-19']);
    addGames(deps, b.id, ['2026-11-19'], 3);
    expect(queueAutoReviews(deps, 2)).toBe(3);
    expect(autoReviewsToday(deps.store, a.id, clock.now())).toBe(2);
    expect(autoReviewsToday(deps.store, b.id, clock.now())).toBe(1);
  });

  test('an API review request queued after the auto jobs runs first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfp-auto-'));
    dirs.push(dir);
    const clock = fixedClock('2026-11-20T09:00:00Z');
    const deps = open(dir, clock);
    const user = createUser(deps.store, clock, { displayName: 'Owner', email: 'o@example.test' });
    addGames(deps, user.id, ['2026-11-17', '2026-11-18', '2026-11-19']);
    expect(queueAutoReviews(deps, 2)).toBe(2);
    const oldest = deps.store.db.select().from(games).all().find((g) => g.playedAt.startsWith('2026-11-17'))!;
    clock.advance(1_000);
    const ctx = { ...deps, user, caller: { surface: 'rest' as const, key: 'test' } };
    const reply = await requestReview(ctx, gameReviewSubject(ctx, oldest.id), 0);
    expect(reply).toMatchObject({ status: 202 });
    // Workers take the highest priority first: the request, though queued last.
    const claimed = deps.runtime.reviews.claim()!;
    expect(claimed.subjectId).toBe(oldest.id);
    expect(claimed.priority).toBe(REVIEW_PRIORITY.request);
    expect(autoReviewsToday(deps.store, user.id, clock.now())).toBe(2);
  });
});
