import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import { movesKey, START_FEN } from '../../../src/chess/pgn.js';
import { fixedClock } from '../../../src/clock.js';
import { EnginePool, type Analyser } from '../../../src/engine/pool.js';
import { createUser } from '../../../src/services/accounts/accounts.js';
import { ReviewQueue, STALE_LEASE_MS, insertReviewJob } from '../../../src/services/review/queue.js';
import { openStore, storeFile, type Store } from '../../../src/store/db.js';
import { reviewJobs, reviewWorkerLease } from '../../../src/store/schema/index.js';
import { makeAnalysis } from '../../helpers/analysis.js';

const hanging = fileURLToPath(new URL('../../fixtures/uci/hanging-engine.mjs', import.meta.url));
const clock = fixedClock('2026-11-20T12:00:00Z');
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function tempStore(): { dir: string; store: Store } {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-lease-'));
  const store = openStore(storeFile(dir));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => store.close());
  return { dir, store };
}

const OPENINGS = [['e4', 'e5'], ['d4', 'd5'], ['c4', 'e5'], ['Nf3', 'd5'], ['g3', 'g6'], ['b3', 'e5']];
const analysisOf = (san: string[]) => makeAnalysis({ sanMoves: san, evals: san.map(() => 20).concat(20) });

function enqueue(store: Store, userId: string, san: string[]): string {
  const a = analysisOf(san);
  return insertReviewJob(store, clock, { userId, subjectKind: 'game', subjectId: san.join(''), movesKey: movesKey(START_FEN, a.movesUci), startFen: START_FEN, movesUci: a.movesUci }).id;
}

/** A stand-in engine that counts what it analyses (the stored output is hand-made). */
function countingAnalyser(seen: string[]): Analyser {
  return {
    async analyse(startFen, movesUci) {
      seen.push(movesUci.join(' '));
      await new Promise((r) => setTimeout(r, 30));
      const san = OPENINGS.find((o) => analysisOf(o).movesUci.join(' ') === movesUci.join(' '))!;
      return analysisOf(san);
    },
    async close() {},
  };
}

async function drain(queues: ReviewQueue[], store: Store, n: number) {
  for (let i = 0; i < 400; i++) {
    const done = store.db.select().from(reviewJobs).all().filter((j) => j.status === 'complete' || j.status === 'failed');
    if (done.length === n) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`jobs did not finish (${queues.length} queues)`);
}

describe('job leases', () => {
  test('two processes on one store run each job exactly once', async () => {
    const { dir, store } = tempStore();
    const user = createUser(store, clock, { displayName: 'O', email: 'o@example.test' });
    for (const o of OPENINGS) enqueue(store, user.id, o);
    // The second "process" has its own connection to the same file, as `mcp` beside `serve` does.
    const other = openStore(storeFile(dir));
    cleanup.push(() => other.close());
    const seenA: string[] = [];
    const seenB: string[] = [];
    const a = new ReviewQueue(store, clock, () => countingAnalyser(seenA));
    const b = new ReviewQueue(other, clock, () => countingAnalyser(seenB));
    a.startWorkers();
    b.startWorkers();
    cleanup.push(() => a.stop(), () => b.stop());
    await drain([a, b], store, OPENINGS.length);
    const jobs = store.db.select().from(reviewJobs).all();
    expect(jobs.every((j) => j.status === 'complete' && j.attempts === 1)).toBe(true);
    expect([...seenA, ...seenB].sort()).toEqual(OPENINGS.map((o) => analysisOf(o).movesUci.join(' ')).sort());
  });

  test('a process takes only queued or stale jobs, and its shutdown releases only its own', async () => {
    const { store } = tempStore();
    const user = createUser(store, clock, { displayName: 'O', email: 'o@example.test' });
    const live = enqueue(store, user.id, OPENINGS[0]);
    const dead = enqueue(store, user.id, OPENINGS[1]);
    const now = Date.now();
    const running = (id: string, owner: string, beatMsAgo: number) =>
      store.db.update(reviewJobs).set({ status: 'running', leaseOwner: owner, heartbeatAt: new Date(now - beatMsAgo).toISOString(), attempts: 1 }).where(eq(reviewJobs.id, id)).run();
    running(live, 'serve-elsewhere', 1_000); // its process is alive: heartbeat a second old
    running(dead, 'killed-with-9', STALE_LEASE_MS + 5_000); // its process died: heartbeat stale
    const q = new ReviewQueue(store, clock, () => countingAnalyser([]));
    const claimed = q.claim();
    expect(claimed?.id).toBe(dead);
    expect(claimed).toMatchObject({ leaseOwner: q.leaseOwner, attempts: 2 });
    expect(q.claim()).toBeNull();
    // Shutting down puts back its own job only; the live process's job is untouched.
    await q.stop();
    const byId = (id: string) => store.db.select().from(reviewJobs).where(eq(reviewJobs.id, id)).get()!;
    expect(byId(dead)).toMatchObject({ status: 'queued', leaseOwner: null });
    expect(byId(live)).toMatchObject({ status: 'running', leaseOwner: 'serve-elsewhere' });
  });

  test('a job killed mid-review resumes in the next process and completes', async () => {
    const { store } = tempStore();
    const user = createUser(store, clock, { displayName: 'O', email: 'o@example.test' });
    const id = enqueue(store, user.id, OPENINGS[2]);
    const first = new ReviewQueue(store, clock, () => countingAnalyser([]));
    expect(first.claim()?.id).toBe(id);
    // The process is killed (-9): no shutdown runs, its heartbeat stops and goes stale.
    const stale = new Date(Date.now() - STALE_LEASE_MS - 1_000).toISOString();
    store.db.update(reviewJobs).set({ heartbeatAt: stale }).where(eq(reviewJobs.id, id)).run();
    // …and so does its hold on the queue (the worker lease): both beat from the same process.
    store.db.update(reviewWorkerLease).set({ heartbeatAt: stale }).run();
    const second = new ReviewQueue(store, clock, () => countingAnalyser([]));
    expect(await second.runOnce()).toBe(true);
    expect(store.db.select().from(reviewJobs).get()).toMatchObject({ status: 'complete', attempts: 2, leaseOwner: null });
  });

  test('a hung engine is killed after the timeout and fails only its own job; the next job runs on a fresh engine', async () => {
    const { store } = tempStore();
    const a = createUser(store, clock, { displayName: 'A', email: 'a@example.test' });
    const b = createUser(store, clock, { displayName: 'B', email: 'b@example.test' });
    const hungJob = enqueue(store, a.id, ['a3', 'e5']);
    const okJob = enqueue(store, b.id, ['e4', 'e5']);
    const pool = new EnginePool({ path: hanging, build: 'lite', threads: 1, hashMb: 16, multiPv: 1, size: 1, nodesPerPosition: 100, searchTimeoutMs: 400 });
    cleanup.push(() => pool.close());
    const q = new ReviewQueue(store, clock, () => pool);
    await q.runOnce();
    await q.runOnce();
    const byId = (id: string) => store.db.select().from(reviewJobs).where(eq(reviewJobs.id, id)).get()!;
    expect(byId(hungJob)).toMatchObject({ status: 'failed' });
    expect(byId(hungJob).error).toMatch(/did not answer within/);
    expect(byId(okJob)).toMatchObject({ status: 'complete', error: null });
  }, 30_000);
});

