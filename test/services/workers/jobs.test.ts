import { Chess } from 'chess.js';
import { afterEach, describe, expect, test } from 'vitest';
import { issueWorkerKey, revokeWorkerKey, verifyWorkerKey } from '../../../src/auth/workerKeys.js';
import type { StoredAnalysis } from '../../../src/chess/engineOutput.js';
import { movesKey } from '../../../src/chess/pgn.js';
import type { Analyser } from '../../../src/engine/pool.js';
import { analysisRow, engineOutput, insertReviewJob, ReviewQueue, saveReview, storeSourceReview } from '../../../src/services/review/index.js';
import { abortWork, acquireWork, listWorkerKeys, submitAnalysis, touchKey, type WorkerCall } from '../../../src/services/workers/index.js';
import { reviewJobs } from '../../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

const START = new Chess().fen();
const MOVES = ['e2e4', 'e7e5', 'g1f3', 'b8c6'];
const TIMEOUT = 5_000;
const LEASE = TIMEOUT * (MOVES.length + 1);

let app: TestApp;
afterEach(async () => app?.close());

/**
 * Test input standing for a worker's answer: each position's PV is its first legal move in chess.js's order and
 * its score a fixed small cp. These evaluations are nobody's search; the tests below check leases and storage, not
 * figures (the conformance test checks figures from a real engine).
 */
function answer(moves: readonly string[] = MOVES) {
  const board = new Chess();
  const out = [];
  for (let i = 0; i <= moves.length; i++) {
    const first = board.moves({ verbose: true })[0];
    out.push({ pv: first.from + first.to + (first.promotion ?? ''), depth: 12, score: { cp: 20 }, nodes: 5_000, time: 40 });
    if (i < moves.length) board.move({ from: moves[i].slice(0, 2), to: moves[i].slice(2, 4), promotion: moves[i][4] });
  }
  return { stockfish: { flavor: 'nnue' }, analysis: out };
}

function setup(now: { t: number }) {
  app = makeTestApp({ env: { CFP_WORKER_TIMEOUT_MS: String(TIMEOUT), CFP_WORKER_NODES: '100000' } });
  const { user } = app.addUser();
  const call = (name: string): WorkerCall => {
    const { key } = issueWorkerKey(app.deps.store, app.clock, user.id, name);
    return { store: app.deps.store, clock: app.clock, settings: app.config.reviewWorkers, holder: verifyWorkerKey(app.deps.store, key)!, userAgent: `fishnet-test/${name}`, now: () => now.t };
  };
  const job = insertReviewJob(app.deps.store, app.clock, { userId: user.id, subjectKind: 'game', subjectId: 'g1', movesKey: movesKey(START, MOVES), startFen: START, movesUci: MOVES });
  return { user, call, job };
}

const jobRow = (id: string) => app.deps.store.db.select().from(reviewJobs).all().find((j) => j.id === id)!;
const analysesCount = () => (app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM analyses').get() as { n: number }).n;
const opts = { slow: false, stop: true };

describe('leases', () => {
  test('a job is another key’s only once its lease (timeout × positions) has run out; the old holder’s submission is then refused and the job stored once', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const a = call('laptop');
    const b = call('desktop');
    const first = acquireWork(a, false)!;
    expect(first.moves).toBe(MOVES.join(' '));
    now.t += LEASE - 1;
    expect(acquireWork(b, false)).toBeNull();
    now.t += 2;
    const second = acquireWork(b, false)!;
    expect(second.work.id).not.toBe(first.work.id);
    // The first holder (killed, or merely late) no longer holds it: 404, nothing changes.
    expect(submitAnalysis(a, first.work.id, answer(), opts)).toMatchObject({ status: 404 });
    expect(analysesCount()).toBe(0);
    expect(submitAnalysis(b, second.work.id, answer(), opts)).toEqual({ status: 204 });
    expect(jobRow(job.id).status).toBe('complete');
    expect(analysesCount()).toBe(1);
    // Stored once: the same submission again, or the old holder's, is refused.
    expect(submitAnalysis(b, second.work.id, answer(), opts)).toMatchObject({ status: 404 });
    expect(submitAnalysis(a, first.work.id, answer(), opts)).toMatchObject({ status: 404 });
    const keys = listWorkerKeys(app.deps.store, job.userId, now.t);
    expect(keys.map((k) => [k.name, k.jobsDone, k.positionsDone])).toEqual([
      ['laptop', 0, 0],
      ['desktop', 1, 5],
    ]);
    // 5 positions in 5 × 40 ms of reported search.
    expect(keys[1].positionsPerSecond).toBe(25);
  });

  test('a late holder whose job nobody took meanwhile may still submit it', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const a = call('laptop');
    const work = acquireWork(a, false)!;
    now.t += LEASE * 3;
    expect(submitAnalysis(a, work.work.id, answer(), opts)).toEqual({ status: 204 });
    expect(jobRow(job.id).status).toBe('complete');
  });

  test('progress extends the lease by the positions still to search', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call } = setup(now);
    const a = call('laptop');
    const b = call('desktop');
    const work = acquireWork(a, false)!;
    now.t += LEASE - 1_000;
    const partial = answer();
    const progress = { ...partial, analysis: partial.analysis.map((e, i) => (i >= 2 ? e : null)) };
    expect(submitAnalysis(a, work.work.id, progress, opts)).toEqual({ status: 204 });
    expect(analysesCount()).toBe(0);
    // Two positions left: the lease now runs 2 × TIMEOUT from the report.
    now.t += 2 * TIMEOUT - 1;
    expect(acquireWork(b, false)).toBeNull();
    now.t += 2;
    expect(acquireWork(b, false)).not.toBeNull();
  });

  test('a malformed submission is refused, stores nothing, and puts the job back; abort puts it back too', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const a = call('laptop');
    const work = acquireWork(a, false)!;
    const bad = answer();
    bad.analysis[2] = { ...bad.analysis[2], pv: 'e1e8' };
    const out = submitAnalysis(a, work.work.id, bad, opts);
    expect(out).toMatchObject({ status: 400 });
    expect((out as { error: string }).error).toContain('analysis[2].pv: move 1 (e1e8) is not legal');
    expect(jobRow(job.id)).toMatchObject({ status: 'queued', leaseOwner: null });
    expect(analysesCount()).toBe(0);
    const again = acquireWork(a, false)!;
    expect(abortWork(a, again.work.id)).toBe(true);
    expect(abortWork(a, again.work.id)).toBe(false);
    expect(jobRow(job.id).status).toBe('queued');
  });

  test('slow workers take background reviews only; a revoked key is refused from its next request', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, user } = setup(now);
    const a = call('laptop');
    expect(acquireWork(a, true)).toBeNull();
    expect(acquireWork(a, false)).not.toBeNull();
    const { key } = issueWorkerKey(app.deps.store, app.clock, user.id, 'spare');
    expect(verifyWorkerKey(app.deps.store, key)?.name).toBe('spare');
    expect(revokeWorkerKey(app.deps.store, app.clock, user.id, 'spare')).toBe(true);
    expect(verifyWorkerKey(app.deps.store, key)).toBeNull();
    expect(revokeWorkerKey(app.deps.store, app.clock, user.id, 'spare')).toBe(false);
    // The name is free again once revoked; a live name is not.
    expect(() => issueWorkerKey(app.deps.store, app.clock, user.id, 'laptop')).toThrow(/already named laptop/);
    expect(issueWorkerKey(app.deps.store, app.clock, user.id, 'spare').key).not.toBe(key);
  });

  test('another owner’s worker never sees this owner’s jobs', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    setup(now);
    const { user: other } = app.addUser();
    const { key } = issueWorkerKey(app.deps.store, app.clock, other.id, 'theirs');
    const theirs: WorkerCall = { store: app.deps.store, clock: app.clock, settings: app.config.reviewWorkers, holder: verifyWorkerKey(app.deps.store, key)!, userAgent: 'x', now: () => now.t };
    expect(acquireWork(theirs, false)).toBeNull();
  });
});

describe('local engines beside workers', () => {
  const idle: Analyser = { analyse: async () => Promise.reject(new Error('not used')), close: async () => {} } as unknown as Analyser;

  test('a worker’s leased job is not taken by the local queue until the lease runs out', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const queue = new ReviewQueue(app.deps.store, app.clock, () => idle, () => now.t);
    acquireWork(call('laptop'), false);
    expect(queue.claim()).toBeNull();
    now.t += LEASE + 1;
    expect(queue.claim()?.id).toBe(job.id);
  });

  test('with a worker connected, a new job waits for workers before a local engine takes it', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const queue = new ReviewQueue(app.deps.store, app.clock, () => idle, () => now.t, { workerWaitMs: 60_000 });
    touchKey(call('laptop'));
    expect(queue.claim()).toBeNull();
    app.clock.advance(60_001);
    expect(queue.claim()?.id).toBe(job.id);
  });
});

describe('which review is kept', () => {
  const quick = (moves: readonly string[]): StoredAnalysis => {
    const a = answer(moves).analysis;
    const board = new Chess();
    const positions = a.map((e, i) => {
      const fen = board.fen();
      if (i < moves.length) board.move({ from: moves[i].slice(0, 2), to: moves[i].slice(2, 4) });
      return { index: i, fen, lines: [{ multiPv: 1, score: { cp: 30, mate: null }, pv: [e.pv], depth: 10 }], terminal: null, depth: 10, nodes: 30_000 };
    });
    return { engine: { name: 'Stockfish', version: '19', build: 'full', network: null }, budget: { nodesPerPosition: 30_000, multiPv: 2, search: 'position' }, startFen: START, movesUci: [...moves], positions, analysedAt: '2026-11-20T11:00:00Z' };
  };

  test('a worker review replaces a quick engine review of the owner’s moves; a quick one never replaces it', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    saveReview(app.deps.store, analysisRow(job.userId, job.movesKey, quick(MOVES), '2026-11-20T11:00:00Z'));
    const laptop = call('laptop');
    const work = acquireWork(laptop, false)!;
    expect(submitAnalysis(call('desktop'), work.work.id, answer(), opts)).toMatchObject({ status: 404 });
    const holder = call('box');
    abortWork(laptop, work.work.id);
    const w2 = acquireWork(holder, false)!;
    expect(submitAnalysis(holder, w2.work.id, answer(), opts)).toEqual({ status: 204 });
    const stored = engineOutput(app.deps.store, job.userId, job.movesKey)!;
    expect(stored.worker).toEqual({ key: 'box', userAgent: 'fishnet-test/box', flavor: 'nnue' });
    expect(stored.budget).toEqual({ nodesPerPosition: 100_000, multiPv: 1, search: 'fishnet' });
    // The local engines' save (the owner's first review stays) leaves it as it is.
    saveReview(app.deps.store, analysisRow(job.userId, job.movesKey, quick(MOVES), '2026-11-20T11:00:00Z'));
    expect(engineOutput(app.deps.store, job.userId, job.movesKey)!.worker?.key).toBe('box');
  });

  test('a lichess-imported review is never replaced', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job, user } = setup(now);
    const imported = { ...quick(MOVES), source: { name: 'lichess' as const, gameId: 'abcdefgh', judgments: MOVES.map(() => null) } };
    storeSourceReview(app.deps.store, user.id, job.movesKey, imported, '2026-11-20T11:00:00Z');
    const a = call('laptop');
    const work = acquireWork(a, false)!;
    expect(submitAnalysis(a, work.work.id, answer(), opts)).toEqual({ status: 204 });
    expect(engineOutput(app.deps.store, job.userId, job.movesKey)!.source?.name).toBe('lichess');
    expect(jobRow(job.id).status).toBe('complete');
  });
});
