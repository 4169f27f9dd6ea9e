import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { movesKey, parsePgn, START_FEN } from '../../../src/chess/pgn.js';
import { fixedClock } from '../../../src/clock.js';
import { EnginePool } from '../../../src/engine/pool.js';
import { createUser } from '../../../src/services/accounts/accounts.js';
import { ReviewQueue, insertReviewJob } from '../../../src/services/review/queue.js';
import { engineOutput } from '../../../src/services/review/records.js';
import { openStore, storeFile, type Store } from '../../../src/store/db.js';
import { reviewJobs } from '../../../src/store/schema/index.js';

const slow = fileURLToPath(new URL('../../fixtures/uci/slow-engine.mjs', import.meta.url));
const hanging = fileURLToPath(new URL('../../fixtures/uci/hanging-engine.mjs', import.meta.url));
const clock = fixedClock('2026-11-20T12:00:00Z');
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function setUp(enginePath: string, searchTimeoutMs: number): { store: Store; queue: ReviewQueue; userId: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-workers-'));
  const store = openStore(storeFile(dir));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => store.close());
  const pool = new EnginePool({ path: enginePath, build: 'lite', threads: 1, hashMb: 16, multiPv: 1, size: 2, nodesPerPosition: 100, searchTimeoutMs });
  const queue = new ReviewQueue(store, clock, () => pool);
  cleanup.push(() => pool.close(), () => queue.stop());
  const userId = createUser(store, clock, { displayName: 'O', email: 'o@example.test' }).id;
  return { store, queue, userId };
}

function enqueue(store: Store, userId: string, pgn: string): { jobId: string; key: string } {
  const uci = parsePgn(pgn).plies.map((p) => p.uci);
  const key = movesKey(START_FEN, uci);
  const jobId = insertReviewJob(store, clock, { userId, subjectKind: 'game', subjectId: pgn, movesKey: key, startFen: START_FEN, movesUci: uci }).id;
  return { jobId, key };
}

/** Polls the jobs until all settle; records whether they were ever all running at once. */
async function watch(store: Store, n: number): Promise<{ together: boolean }> {
  let together = false;
  for (let i = 0; i < 600; i++) {
    const jobs = store.db.select().from(reviewJobs).all();
    if (jobs.filter((j) => j.status === 'running').length === n) together = true;
    if (jobs.every((j) => j.status === 'complete' || j.status === 'failed')) return { together };
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('jobs did not finish');
}

/** The engine processes (their pids, which the fake engine reports as its node count) that searched a review. */
// The start position is left out: both games share it, and the owner's position memo gives the
// second game the first one's search of it (whichever engine made it).
const enginesOf = (store: Store, userId: string, key: string) => new Set(engineOutput(store, userId, key)!.positions.filter((p) => !p.terminal && p.index > 0).map((p) => p.nodes));

// 6 plies: 7 positions searched, 100 ms each on the fake engine (a generous timeout: a restart under
// load would show as a second engine in the tally).
const GAME_A = '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *';
const GAME_B = '1. d4 d5 2. c4 e6 3. Nc3 Nf6 *';

describe('engine workers: whole games when several wait, one game split when alone', () => {
  test('2 engines, 2 queued jobs: both run at once, each on one engine of its own', async () => {
    const { store, queue, userId } = setUp(slow, 20_000);
    const a = enqueue(store, userId, GAME_A);
    const b = enqueue(store, userId, GAME_B);
    queue.startWorkers();
    expect((await watch(store, 2)).together).toBe(true);
    const ea = enginesOf(store, userId, a.key);
    const eb = enginesOf(store, userId, b.key);
    expect(ea.size).toBe(1);
    expect(eb.size).toBe(1);
    expect([...ea][0]).not.toBe([...eb][0]);
  }, 30_000);

  test('2 engines, 1 job: both engines share it', async () => {
    const { store, queue, userId } = setUp(slow, 20_000);
    const a = enqueue(store, userId, GAME_A);
    queue.startWorkers();
    await watch(store, 1);
    expect(store.db.select().from(reviewJobs).get()!).toMatchObject({ status: 'complete', error: null });
    expect(enginesOf(store, userId, a.key).size).toBe(2);
  }, 30_000);

  test('a hung engine fails only its own job while the other engine finishes its game', async () => {
    const { store, queue, userId } = setUp(hanging, 1_500);
    const hung = enqueue(store, userId, '1. a3 e5 *');
    const ok = enqueue(store, userId, GAME_B);
    queue.startWorkers();
    await watch(store, 2);
    const byId = (id: string) => store.db.select().from(reviewJobs).all().find((j) => j.id === id)!;
    expect(byId(hung.jobId)).toMatchObject({ status: 'failed' });
    expect(byId(hung.jobId).error).toMatch(/did not answer within/);
    expect(byId(ok.jobId)).toMatchObject({ status: 'complete', error: null });
  }, 30_000);
});
