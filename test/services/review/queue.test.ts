import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import { createAppDeps } from '../../../src/app.js';
import { parsePgn } from '../../../src/chess/pgn.js';
import { fixedClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import type { AppDeps, PersonalCtx } from '../../../src/context.js';
import { createUser } from '../../../src/services/accounts/accounts.js';
import { insertGames, movesColumns } from '../../../src/services/games/gameWriter.js';
import { gameReviewSubject } from '../../../src/services/review/gameSubject.js';
import { requestReview } from '../../../src/services/review/reviewRequests.js';
import { openStore, storeFile } from '../../../src/store/db.js';
import { analyses, games, reviewJobs } from '../../../src/store/schema/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// The lite build: the queue is under test, not the network (the full build takes seconds to start).
const config = (dir: string) => loadConfig({ dataDir: dir }, { CFP_RATE_LIMITS: 'off', CFP_ENGINE_NODES: '2000', CFP_ENGINE_BUILD: 'lite' });

/** One "process": a store opened on the folder and its runtime. */
function open(dir: string, clock: ReturnType<typeof fixedClock>): AppDeps {
  return createAppDeps(config(dir), { clock, store: openStore(storeFile(dir)) });
}

async function shut(deps: AppDeps) {
  await deps.runtime.close();
  deps.store.close();
}

function seed(deps: AppDeps): { ctx: PersonalCtx; gameId: string } {
  const user = createUser(deps.store, deps.clock, { displayName: 'Owner', email: 'o@example.test' });
  const parsed = parsePgn('1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *');
  insertGames(deps.store, deps.clock, [
    {
      game: {
        userId: user.id, provider: 'siteB', sourceId: 'x1', playedAt: '2026-10-01T00:00:00Z', colour: 'black', result: 'draw',
        opponent: 'Them', timeClass: 'blitz', rated: true, sourceUrl: 'https://example.test', ...movesColumns(parsed, 'h'), pgnHash: null,
      },
    },
  ]);
  const gameId = deps.store.db.select().from(games).get()!.id;
  return { ctx: { ...deps, user, caller: { surface: 'rest', key: 'test' } }, gameId };
}

/** Waits (real time) until the job reaches a final state. */
async function settled(deps: AppDeps, jobId: string) {
  for (let i = 0; i < 400; i++) {
    const job = deps.runtime.reviews.job(jobId)!;
    if (job.status === 'complete' || job.status === 'failed') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('job did not finish');
}

describe('the review queue survives a restart', () => {
  test('enqueued, process closed before any worker ran, reopened: the job runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfp-queue-'));
    dirs.push(dir);
    const clock = fixedClock('2026-11-20T12:00:00Z');
    const first = open(dir, clock);
    const { ctx, gameId } = seed(first);
    const reply = await requestReview(ctx, gameReviewSubject(ctx, gameId), 0);
    expect(reply).toMatchObject({ status: 202, body: { status: 'queued' } });
    await shut(first);

    clock.advance(60_000);
    const second = open(dir, clock);
    const job = second.store.db.select().from(reviewJobs).get()!;
    expect(job.status).toBe('queued');
    second.runtime.reviews.startWorkers();
    expect((await settled(second, job.id)).status).toBe('complete');
    expect(second.store.db.select().from(analyses).all()).toHaveLength(1);
    // The owner played Black: the game carries Black's accuracy.
    const acc = second.store.db.select().from(analyses).get()!.accuracyBlack;
    expect(second.store.db.select().from(games).where(eq(games.id, gameId)).get()!.reviewAccuracy).toBeCloseTo(acc, 6);
    await shut(second);
  }, 60_000);

  test('a job a dead process left running goes back to the queue and completes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfp-queue-'));
    dirs.push(dir);
    const clock = fixedClock('2026-11-20T12:00:00Z');
    const first = open(dir, clock);
    const { ctx, gameId } = seed(first);
    await requestReview(ctx, gameReviewSubject(ctx, gameId), 0);
    // The process "dies" mid-review: the row says running, started by it.
    first.store.sqlite.prepare("UPDATE review_jobs SET status = 'running', started_at = ?, attempts = 1").run(clock.now().toISOString());
    first.store.close();

    clock.advance(60_000);
    const second = open(dir, clock);
    const job = second.store.db.select().from(reviewJobs).get()!;
    expect(job.status).toBe('running');
    second.runtime.reviews.startWorkers();
    const done = await settled(second, job.id);
    expect(done).toMatchObject({ status: 'complete', attempts: 2 });
    await shut(second);
  }, 60_000);

  test('closing while a review runs puts it back in the queue, not failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfp-queue-'));
    dirs.push(dir);
    const clock = fixedClock('2026-11-20T12:00:00Z');
    const deps = createAppDeps(loadConfig({ dataDir: dir }, { CFP_RATE_LIMITS: 'off', CFP_ENGINE_NODES: '5000000' }), {
      clock,
      store: openStore(storeFile(dir)),
    });
    const { ctx, gameId } = seed(deps);
    await requestReview(ctx, gameReviewSubject(ctx, gameId), 0);
    deps.runtime.reviews.startWorkers();
    for (let i = 0; i < 200 && deps.store.db.select().from(reviewJobs).get()!.status !== 'running'; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    await shut(deps);
    const reopened = openStore(storeFile(dir));
    expect(reopened.db.select().from(reviewJobs).get()!.status).toBe('queued');
    reopened.close();
  }, 60_000);
});
