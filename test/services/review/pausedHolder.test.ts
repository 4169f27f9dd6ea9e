import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { StoredAnalysis } from '../../../src/chess/engineOutput.js';
import { movesKey, START_FEN } from '../../../src/chess/pgn.js';
import { fixedClock } from '../../../src/clock.js';
import { EnginePool, ReviewAborted, type Analyser, type AnalyseOptions } from '../../../src/engine/pool.js';
import { createUser } from '../../../src/services/accounts/accounts.js';
import { HEARTBEAT_MS, ReviewQueue, STALE_LEASE_MS, insertReviewJob } from '../../../src/services/review/queue.js';
import { openStore, storeFile, type Store } from '../../../src/store/db.js';
import { reviewJobs, reviewWorkerLease } from '../../../src/store/schema/index.js';
import { makeAnalysis } from '../../helpers/analysis.js';

/**
 * Issue 37 item 3: one engine per job, even across a SIGSTOP. Holder A is "paused" by not letting its
 * heartbeat run (its interval is a fake timer, advanced only when A "resumes") while its lease clock stands
 * still; B, another queue on the same store file with its own connection (another process), sees the lease
 * stale, takes the job and completes it. When A resumes, its first heartbeat finds the job gone and stops
 * its engine search; whatever A's engine still returns stores nothing.
 */
const clock = fixedClock('2026-11-20T12:00:00Z');
const T0 = Date.parse('2026-11-20T12:00:00Z');
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const SAN = ['e4', 'e5', 'Nf3', 'Nc6'];
const base = makeAnalysis({ sanMoves: SAN, evals: [20, 25, 20, 25, 20] });
const KEY = movesKey(START_FEN, base.movesUci);
const outputOf = (who: string): StoredAnalysis => ({ ...base, engine: { name: `Engine ${who}`, version: '1' } });

function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-paused-'));
  const store = openStore(storeFile(dir));
  const other = openStore(storeFile(dir));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => store.close(), () => other.close());
  const user = createUser(store, clock, { displayName: 'O', email: 'o@example.test' });
  insertReviewJob(store, clock, { userId: user.id, subjectKind: 'study', subjectId: 's1', movesKey: KEY, startFen: START_FEN, movesUci: base.movesUci });
  return { store, other, userId: user.id };
}

/** An engine run the test finishes (or fails) by hand; it records the abort signal it was given and never stops by itself. */
function heldAnalyser() {
  let finish!: (a: StoredAnalysis) => void;
  let fail!: (e: Error) => void;
  const run = {
    signal: null as AbortSignal | null,
    started: false,
    finish: (a: StoredAnalysis) => finish(a),
    fail: (e: Error) => fail(e),
    analyser: {
      analyse: (_fen: string, _moves: readonly string[], _now: () => string, opts?: AnalyseOptions) => {
        run.started = true;
        run.signal = opts?.signal ?? null;
        return new Promise<StoredAnalysis>((resolve, reject) => ((finish = resolve), (fail = reject)));
      },
      close: async () => {},
    } satisfies Analyser,
  };
  return run;
}

const instant = (a: StoredAnalysis): Analyser => ({ analyse: async () => a, close: async () => {} });

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

/** The engines whose output is stored (the job's owner is the only owner here). */
function stored(store: Store) {
  return store.sqlite.prepare('SELECT engine FROM analyses').pluck().all();
}

/** A took the job and its engine is searching; A's heartbeat fires only when the test advances its interval, at `clockA.at`. */
async function aRunning() {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const { store, other } = setUp();
  const clockA = { at: T0 };
  const a = heldAnalyser();
  const A = new ReviewQueue(store, clock, () => a.analyser, () => clockA.at);
  const runA = A.runOnce();
  await until(() => a.started);
  return { store, other, a, A, runA, clockA };
}

/**
 * A took the job and its engine is searching; A then stopped beating (its interval never fires here), and B,
 * whose clock shows A's lease stale, took the job over and is searching too.
 */
async function bothRunning() {
  const { store, other, a, runA } = await aRunning();
  const b = heldAnalyser();
  const B = new ReviewQueue(other, clock, () => b.analyser, () => T0 + STALE_LEASE_MS + 1_000);
  const runB = B.runOnce();
  await until(() => b.started);
  return { store, a, runA, b, B, runB };
}

describe('a paused holder never works a job another process took over (issue 37 item 3)', () => {
  test('A paused past its lease: B takes and completes the job; A resumes, its heartbeat stops its engine, and its completion stores nothing', async () => {
    const { store, other, a, A, runA, clockA } = await aRunning();
    expect(store.db.select().from(reviewJobs).get()).toMatchObject({ status: 'running', leaseOwner: A.leaseOwner, attempts: 1 });

    // A is stopped (no heartbeat) past the lease; B's clock shows the lease stale.
    const tB = T0 + STALE_LEASE_MS + 1_000;
    const B = new ReviewQueue(other, clock, () => instant(outputOf('B')), () => tB);
    expect(await B.runOnce()).toBe(true);
    const afterB = store.db.select().from(reviewJobs).get()!;
    expect(afterB).toMatchObject({ status: 'complete', attempts: 2, leaseOwner: null });
    expect(stored(store)).toEqual(['Engine B 1']);
    expect(store.db.select().from(reviewWorkerLease).get()?.leaseOwner).toBe(B.leaseOwner);

    // A resumes: its first heartbeat finds the job no longer its own and aborts its engine search at once.
    clockA.at = tB + 1;
    expect(a.signal!.aborted).toBe(false);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(a.signal!.aborted).toBe(true);
    // An engine that answers anyway (its last search was in flight): A's completion stores nothing.
    a.finish(outputOf('A'));
    expect(await runA).toBe(true);
    expect(store.db.select().from(reviewJobs).get()).toEqual(afterB);
    expect(stored(store)).toEqual(['Engine B 1']);
    expect(store.db.select().from(reviewJobs).all()).toHaveLength(1);
  });

  test('a completion is conditional on holding the job: A finishing after B took the job over (no heartbeat in between) stores nothing; B stores it once', async () => {
    const { store, a, runA, b, B, runB } = await bothRunning();
    expect(store.db.select().from(reviewJobs).get()).toMatchObject({ status: 'running', leaseOwner: B.leaseOwner, attempts: 2 });

    a.finish(outputOf('A'));
    expect(await runA).toBe(true);
    expect(stored(store)).toEqual([]);
    expect(store.db.select().from(reviewJobs).get()).toMatchObject({ status: 'running', leaseOwner: B.leaseOwner, finishedAt: null });

    b.finish(outputOf('B'));
    expect(await runB).toBe(true);
    expect(store.db.select().from(reviewJobs).get()).toMatchObject({ status: 'complete', attempts: 2 });
    expect(stored(store)).toEqual(['Engine B 1']);
  });

  test("a failure is conditional too: A's engine failing after B took the job over does not fail B's job", async () => {
    const { store, a, runA, b, B, runB } = await bothRunning();
    a.fail(new Error('engine process exited (SIGKILL)'));
    await runA;
    expect(store.db.select().from(reviewJobs).get()).toMatchObject({ status: 'running', leaseOwner: B.leaseOwner, error: null });
    b.finish(outputOf('B'));
    await runB;
    expect(store.db.select().from(reviewJobs).get()).toMatchObject({ status: 'complete', error: null });
    expect(stored(store)).toEqual(['Engine B 1']);
  });

  test('the worker lease has the same check: a holder whose hold on the queue was taken over stops its engine and hands its job back', async () => {
    const { store, a, runA, clockA } = await aRunning();
    // Another process took the queue over (A's worker lease went stale first); A's job lease itself is still A's.
    store.db.update(reviewWorkerLease).set({ leaseOwner: 'other-host:4242:cafe', heartbeatAt: new Date(T0 + STALE_LEASE_MS + 1_000).toISOString() }).run();
    clockA.at = T0 + STALE_LEASE_MS + 2_000;
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(a.signal!.aborted).toBe(true);
    // Back in the queue for the queue's holder to take, not failed, not counted as A's.
    expect(store.db.select().from(reviewJobs).get()).toMatchObject({ status: 'queued', leaseOwner: null, heartbeatAt: null, error: null });
    a.finish(outputOf('A'));
    await runA;
    expect(stored(store)).toEqual([]);
    expect(store.db.select().from(reviewWorkerLease).get()?.leaseOwner).toBe('other-host:4242:cafe');
  });

  test('a holder that keeps its lease keeps its job: heartbeats renew it and the review completes', async () => {
    const { store, a, runA, clockA } = await aRunning();
    for (let i = 1; i <= 3; i++) {
      clockA.at = T0 + i * HEARTBEAT_MS;
      vi.advanceTimersByTime(HEARTBEAT_MS);
      expect(store.db.select().from(reviewJobs).get()!.heartbeatAt).toBe(new Date(clockA.at).toISOString());
    }
    expect(a.signal?.aborted).not.toBe(true);
    a.finish(outputOf('A'));
    await runA;
    expect(stored(store)).toEqual(['Engine A 1']);
  });
});

describe('the engine pool stops a review when asked', () => {
  test('aborting mid-search kills the engine at once (no wait for the search) and rejects with ReviewAborted; the slot is free again', async () => {
    // An engine that never answers a game opening 1.a3: only the abort can end this search.
    const hanging = fileURLToPath(new URL('../../fixtures/uci/hanging-engine.mjs', import.meta.url));
    const pool = new EnginePool({ path: hanging, build: 'lite', threads: 1, hashMb: 16, multiPv: 1, size: 1, nodesPerPosition: 100, searchTimeoutMs: 600_000 });
    cleanup.push(() => pool.close());
    const stop = new AbortController();
    const review = pool.analyse(START_FEN, ['a2a3', 'e7e5'], () => '2026-11-20T12:00:00Z', { signal: stop.signal });
    // Its engine process is up and has been sent the search (a look inside the pool: nothing public says so).
    const engines = (pool as unknown as { engines: Array<{ alive: boolean } | null> }).engines;
    await until(() => engines[0]?.alive === true);
    await new Promise((r) => setTimeout(r, 100));
    stop.abort();
    await expect(review).rejects.toBeInstanceOf(ReviewAborted);
    expect(pool.idle()).toBe(1);
    expect(engines[0]).toBeNull(); // killed, to start afresh for the next review
    // A signal already aborted starts nothing.
    await expect(pool.analyse(START_FEN, ['e2e4'], () => '', { signal: stop.signal })).rejects.toBeInstanceOf(ReviewAborted);
  }, 20_000);
});
