import { Chess } from 'chess.js';
import { afterEach, describe, expect, test } from 'vitest';
import { issueWorkerKey, revokeWorkerKey, verifyWorkerKey } from '../../../src/auth/workerKeys.js';
import type { StoredAnalysis } from '../../../src/chess/engineOutput.js';
import { movesKey } from '../../../src/chess/pgn.js';
import type { Analyser } from '../../../src/engine/pool.js';
import { analysisRow, engineOutput, forgetReviews, insertReviewJob, ReviewQueue, saveReview, storeSourceReview } from '../../../src/services/review/index.js';
import { abortWork, acquireWork, leaveWork, listWorkerKeys, refusalWaitSeconds, revokeKey, reviewsByKey, submitAnalysis, touchKey, type WorkerCall } from '../../../src/services/workers/index.js';
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
  test('a job is another key’s only once its lease (timeout × positions) has run out; the old holder’s submission is then refused and the job stored once', async () => {
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
    expect(await submitAnalysis(a, first.work.id, answer(), opts)).toMatchObject({ status: 404 });
    expect(analysesCount()).toBe(0);
    expect(await submitAnalysis(b, second.work.id, answer(), opts)).toEqual({ status: 204 });
    expect(jobRow(job.id).status).toBe('complete');
    expect(analysesCount()).toBe(1);
    // Stored once: the same submission again, or the old holder's, is refused.
    expect(await submitAnalysis(b, second.work.id, answer(), opts)).toMatchObject({ status: 404 });
    expect(await submitAnalysis(a, first.work.id, answer(), opts)).toMatchObject({ status: 404 });
    const keys = listWorkerKeys(app.deps.store, job.userId, now.t);
    expect(keys.map((k) => [k.name, k.jobsDone, k.positionsDone])).toEqual([
      ['laptop', 0, 0],
      ['desktop', 1, 5],
    ]);
    // 5 positions in 5 × 40 ms of reported search.
    expect(keys[1].positionsPerSecond).toBe(25);
  });

  test('a late holder whose job nobody took meanwhile may still submit it', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const a = call('laptop');
    const work = acquireWork(a, false)!;
    now.t += LEASE * 3;
    expect(await submitAnalysis(a, work.work.id, answer(), opts)).toEqual({ status: 204 });
    expect(jobRow(job.id).status).toBe('complete');
  });

  test('progress that brings new positions extends the lease, at the worker’s own pace, at least a chunk; a report with nothing new extends nothing', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const a = call('laptop');
    const b = call('desktop');
    const work = acquireWork(a, false)!;
    // Nothing searched yet: every entry pending. The lease stays what acquire gave (5 positions × 5 s).
    const pending = { stockfish: { flavor: 'nnue' }, analysis: answer().analysis.map(() => null) };
    now.t += 20_000;
    expect(await submitAnalysis(a, work.work.id, pending, opts)).toEqual({ status: 204 });
    now.t += LEASE - 20_000 - 1;
    expect(acquireWork(b, false)).toBeNull();
    // 24.999 s after hand-out, three positions done: the worker's pace is 8.333 s a position, slower than the 5 s timeout,
    // and two positions remain, fewer than a chunk of 6: the lease runs 6 × 8.333 s = 49.998 s from the report.
    const partial = answer();
    const progress = { ...partial, analysis: partial.analysis.map((e, i) => (i >= 2 ? e : null)) };
    expect(await submitAnalysis(a, work.work.id, progress, opts)).toEqual({ status: 204 });
    expect(jobRow(job.id).progressDone).toBe(3);
    // The same three positions again bring nothing: no extension.
    now.t += 40_000;
    expect(await submitAnalysis(a, work.work.id, progress, opts)).toEqual({ status: 204 });
    now.t += 49_998 - 40_000;
    expect(acquireWork(b, false)).toBeNull();
    now.t += 3;
    expect(acquireWork(b, false)).not.toBeNull();
  });

  test('a position slower than the job’s timeout is no reason to refuse: the slow machine’s analysis is stored', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const a = call('laptop');
    const work = acquireWork(a, false)!;
    const slow = answer();
    slow.analysis[4] = { ...slow.analysis[4], time: 2 * TIMEOUT + 207 };
    expect(await submitAnalysis(a, work.work.id, slow, opts)).toEqual({ status: 204 });
    expect(jobRow(job.id).status).toBe('complete');
  });

  test('a malformed submission is refused, stores nothing, and puts the job back; abort puts it back too', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const a = call('laptop');
    const work = acquireWork(a, false)!;
    const bad = answer();
    bad.analysis[2] = { ...bad.analysis[2], pv: 'e1e8' };
    const out = await submitAnalysis(a, work.work.id, bad, opts);
    expect(out).toMatchObject({ status: 400 });
    expect((out as { error: string }).error).toContain('analysis[2].pv: move 1 (e1e8) is not legal');
    expect(jobRow(job.id)).toMatchObject({ status: 'queued', leaseOwner: null });
    expect(analysesCount()).toBe(0);
    const again = acquireWork(a, false)!;
    expect(abortWork(a, again.work.id)).toBe(true);
    expect(abortWork(a, again.work.id)).toBe(false);
    expect(jobRow(job.id).status).toBe('queued');
  });

  test('slow workers take background reviews only; a revoked key is refused from its next request', async () => {
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

  test('another owner’s worker never sees this owner’s jobs', async () => {
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

  test('a worker’s leased job is not taken by the local queue until the lease runs out', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const queue = new ReviewQueue(app.deps.store, app.clock, () => idle, () => now.t);
    acquireWork(call('laptop'), false);
    expect(queue.claim()).toBeNull();
    now.t += LEASE + 1;
    expect(queue.claim()?.id).toBe(job.id);
  });

  test('another owner’s connected worker neither holds this owner’s new job back nor learns of it; a worker that left is gone at once', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const queue = new ReviewQueue(app.deps.store, app.clock, () => idle, () => now.t, { workerWaitMs: 60_000 });
    const { user: q } = app.addUser();
    const { key } = issueWorkerKey(app.deps.store, app.clock, q.id, 'theirs');
    const theirs: WorkerCall = { store: app.deps.store, clock: app.clock, settings: app.config.reviewWorkers, holder: verifyWorkerKey(app.deps.store, key)!, userAgent: 'x', now: () => now.t };
    touchKey(theirs);
    // Q's worker is connected, P has none: P's job goes to the local engine at once.
    expect(queue.claim()?.id).toBe(job.id);

    const second = insertReviewJob(app.deps.store, app.clock, { userId: job.userId, subjectKind: 'game', subjectId: 'g2', movesKey: movesKey(START, ['d2d4']), startFen: START, movesUci: ['d2d4'] });
    const mine = call('laptop');
    touchKey(mine);
    expect(listWorkerKeys(app.deps.store, job.userId, now.t)[0].connected).toBe(true);
    // P's own worker is connected: the new job waits for it…
    expect(queue.claim()).toBeNull();
    // …until it says it is leaving: gone at once, not two minutes later.
    now.t += 1;
    touchKey(mine);
    leaveWork(mine);
    expect(listWorkerKeys(app.deps.store, job.userId, now.t)[0].connected).toBe(false);
    expect(queue.claim()?.id).toBe(second.id);
    // Heard from again: connected again.
    now.t += 1;
    touchKey(mine);
    expect(listWorkerKeys(app.deps.store, job.userId, now.t)[0].connected).toBe(true);
  });

  test('with a worker connected, a new job waits for workers before a local engine takes it', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const queue = new ReviewQueue(app.deps.store, app.clock, () => idle, () => now.t, { workerWaitMs: 60_000 });
    touchKey(call('laptop'));
    expect(queue.claim()).toBeNull();
    app.clock.advance(60_001);
    expect(queue.claim()?.id).toBe(job.id);
  });
});

describe('revoking a key (issue 44 items 5 and 12)', () => {
  test('releases its jobs at once, drops the opening answers it left, counts its reviews (found again by id, whatever became of the name); another owner’s are untouched', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job, user } = setup(now);
    const laptop = call('laptop');
    // Its one review, stored: the first positions kept for later jobs to skip.
    expect(await submitAnalysis(laptop, acquireWork(laptop, false)!.work.id, answer(), opts)).toEqual({ status: 204 });
    const lines = () => (app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM worker_opening_lines WHERE user_id = ?').get(user.id) as { n: number }).n;
    // The 5 positions of 1.e4 e5 2.Nf3 Nc6, none terminal.
    expect(lines()).toBe(5);
    // Another owner's worker review of the same moves, and its lines.
    const q = app.addUser().user;
    insertReviewJob(app.deps.store, app.clock, { userId: q.id, subjectKind: 'game', subjectId: 'gq', movesKey: job.movesKey, startFen: START, movesUci: MOVES });
    const { key: qKey } = issueWorkerKey(app.deps.store, app.clock, q.id, 'laptop');
    const qCall: WorkerCall = { store: app.deps.store, clock: app.clock, settings: app.config.reviewWorkers, holder: verifyWorkerKey(app.deps.store, qKey)!, userAgent: 'q', now: () => now.t };
    expect(await submitAnalysis(qCall, acquireWork(qCall, false)!.work.id, answer(), opts)).toEqual({ status: 204 });
    // A second job, held by the laptop when it is revoked.
    const second = insertReviewJob(app.deps.store, app.clock, { userId: user.id, subjectKind: 'game', subjectId: 'g2', movesKey: movesKey(START, ['d2d4']), startFen: START, movesUci: ['d2d4'] });
    acquireWork(laptop, false);
    expect(jobRow(second.id).status).toBe('running');

    expect(revokeKey(app.deps.store, app.clock, user.id, 'laptop')).toEqual({ released: 1, openingLines: 5, reviews: 1 });
    expect(jobRow(second.id)).toMatchObject({ status: 'queued', leaseOwner: null, progressDone: null });
    expect(lines()).toBe(0);
    expect((app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM worker_opening_lines WHERE user_id = ?').get(q.id) as { n: number }).n).toBe(5);
    // A new key may take the name; the revoked key's review is still found, and only the owner's.
    issueWorkerKey(app.deps.store, app.clock, user.id, 'laptop');
    expect(reviewsByKey(app.deps.store, user.id, 'laptop')).toEqual([job.movesKey]);
    expect(revokeKey(app.deps.store, app.clock, user.id, 'desktop')).toBeNull();
    // Forgotten to be reviewed again: the owner's row goes, Q's stays.
    expect(forgetReviews(app.deps.store, user.id, [job.movesKey])).toBe(1);
    expect(engineOutput(app.deps.store, user.id, job.movesKey)).toBeNull();
    expect(engineOutput(app.deps.store, q.id, job.movesKey)).not.toBeNull();
  });

  test('a name with a trailing or leading space is refused; one with a space inside is fine', () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { user } = setup(now);
    expect(() => issueWorkerKey(app.deps.store, app.clock, user.id, 'laptop ')).toThrow(/not ending with a space/);
    expect(() => issueWorkerKey(app.deps.store, app.clock, user.id, ' laptop')).toThrow(/starting with a letter or digit/);
    expect(issueWorkerKey(app.deps.store, app.clock, user.id, 'old laptop').name).toBe('old laptop');
    expect(issueWorkerKey(app.deps.store, app.clock, user.id, 'x').name).toBe('x');
  });
});

describe('what a submission costs (issue 44 item 1)', () => {
  test('the event loop keeps turning while a submission is judged: it is judged off the main thread', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const a = call('laptop');
    const work = acquireWork(a, false)!;
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 0);
    const pending = submitAnalysis(a, work.work.id, answer(), opts);
    const turnsWhenCalled = turns;
    expect(await pending).toEqual({ status: 204 });
    clearInterval(ticking);
    // Called synchronously, the old submission had judged and stored before the call returned.
    expect(jobRow(job.id).status).toBe('complete');
    expect(turns).toBeGreaterThan(turnsWhenCalled);
  });

  test('a PV is read to the 12 plies lichess keeps; one longer than any Stockfish PV is refused', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const a = call('laptop');
    const work = acquireWork(a, false)!;
    // A reversible knight cycle: legal however long. 20 cycles of 4 plies from the start position = 80 plies.
    const cycle = Array.from({ length: 20 }, () => 'g1f3 g8f6 f3g1 f6g8').join(' ');
    const long = answer();
    long.analysis[0] = { ...long.analysis[0], pv: cycle };
    expect(await submitAnalysis(a, work.work.id, long, opts)).toEqual({ status: 204 });
    const stored = engineOutput(app.deps.store, job.userId, job.movesKey)!;
    expect(stored.positions[0].lines[0].pv).toEqual(cycle.split(' ').slice(0, 12));

    const again = insertReviewJob(app.deps.store, app.clock, { userId: job.userId, subjectKind: 'game', subjectId: 'g2', movesKey: movesKey(START, ['d2d4']), startFen: START, movesUci: ['d2d4'] });
    const w2 = acquireWork(a, false)!;
    const huge = answer(['d2d4']);
    // The same legal cycle, 300 plies: 1,499 characters, past the 246 plies × 6 characters (1,476) a Stockfish PV can take.
    huge.analysis[0] = { ...huge.analysis[0], pv: Array.from({ length: 75 }, () => 'g1f3 g8f6 f3g1 f6g8').join(' ') };
    const out = await submitAnalysis(a, w2.work.id, huge, opts);
    expect(out).toMatchObject({ status: 400 });
    expect((out as { error: string }).error).toMatch(/analysis\[0\]\.pv: Too big/);
    expect(jobRow(again.id).status).toBe('queued');
  });

  test('a key whose submissions keep failing waits before it gets work again: 15 s after the second refusal in a row, doubling; a stored analysis clears it', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    const q = call('laptop');
    const bad = { stockfish: { flavor: 'nnue' }, analysis: [] };
    expect(refusalWaitSeconds(q)).toBe(0);
    expect(await submitAnalysis(q, acquireWork(q, false)!.work.id, bad, opts)).toMatchObject({ status: 400 });
    // One refusal costs nothing.
    expect(refusalWaitSeconds(q)).toBe(0);
    expect(await submitAnalysis(q, acquireWork(q, false)!.work.id, bad, opts)).toMatchObject({ status: 400 });
    expect(refusalWaitSeconds(q)).toBe(15);
    now.t += 15_000;
    expect(refusalWaitSeconds(q)).toBe(0);
    expect(await submitAnalysis(q, acquireWork(q, false)!.work.id, bad, opts)).toMatchObject({ status: 400 });
    expect(refusalWaitSeconds(q)).toBe(30);
    now.t += 30_000;
    expect(await submitAnalysis(q, acquireWork(q, false)!.work.id, answer(), opts)).toEqual({ status: 204 });
    expect(jobRow(job.id).status).toBe('complete');
    expect(refusalWaitSeconds(q)).toBe(0);
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

  test('a worker review replaces a quick engine review of the owner’s moves; a quick one never replaces it', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job } = setup(now);
    saveReview(app.deps.store, analysisRow(job.userId, job.movesKey, quick(MOVES), '2026-11-20T11:00:00Z'));
    const laptop = call('laptop');
    const work = acquireWork(laptop, false)!;
    expect(await submitAnalysis(call('desktop'), work.work.id, answer(), opts)).toMatchObject({ status: 404 });
    const holder = call('box');
    abortWork(laptop, work.work.id);
    const w2 = acquireWork(holder, false)!;
    expect(await submitAnalysis(holder, w2.work.id, answer(), opts)).toEqual({ status: 204 });
    const stored = engineOutput(app.deps.store, job.userId, job.movesKey)!;
    expect(stored.worker).toEqual({ key: 'box', keyId: holder.holder.id, userAgent: 'fishnet-test/box', flavor: 'nnue' });
    expect(stored.budget).toEqual({ nodesPerPosition: 100_000, multiPv: 1, search: 'fishnet' });
    // The local engines' save (the owner's first review stays) leaves it as it is.
    saveReview(app.deps.store, analysisRow(job.userId, job.movesKey, quick(MOVES), '2026-11-20T11:00:00Z'));
    expect(engineOutput(app.deps.store, job.userId, job.movesKey)!.worker?.key).toBe('box');
  });

  test('a lichess-imported review is never replaced', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, job, user } = setup(now);
    const imported = { ...quick(MOVES), source: { name: 'lichess' as const, gameId: 'abcdefgh', judgments: MOVES.map(() => null) } };
    storeSourceReview(app.deps.store, user.id, job.movesKey, imported, '2026-11-20T11:00:00Z');
    const a = call('laptop');
    const work = acquireWork(a, false)!;
    expect(await submitAnalysis(a, work.work.id, answer(), opts)).toEqual({ status: 204 });
    expect(engineOutput(app.deps.store, job.userId, job.movesKey)!.source?.name).toBe('lichess');
    expect(jobRow(job.id).status).toBe('complete');
  });
});

describe('skipPositions: opening positions the owner’s workers already answered', () => {
  // The Ruy Lopez, closed: 16 plies, so positions 0–16, one past lichess's first 15 (lila FishnetEvalCache maxPlies).
  const RUY = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6', 'b5a4', 'g8f6', 'e1g1', 'f8e7', 'f1e1', 'b7b5', 'a4b3', 'd7d6', 'c2c3', 'e8g8'];
  // The Four Knights by transposition of the first two knight moves: after 1.e4 e5 2.Nc3 Nf6 3.Nf3 Nc6 the
  // position equals 1.e4 e5 2.Nf3 Nc6 3.Nc3 Nf6 (the same placement, side and castling).
  const FOUR_A = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'b1c3', 'g8f6'];
  const FOUR_B = ['e2e4', 'e7e5', 'b1c3', 'g8f6', 'g1f3', 'b8c6'];

  function submitFor(a: WorkerCall, work: { work: { id: string }; skipPositions: number[] }, moves: string[]) {
    const full = answer(moves);
    const analysis = full.analysis.map((e, i) => (work.skipPositions.includes(i) ? { skipped: true as const } : e));
    return submitAnalysis(a, work.work.id, { ...full, analysis }, opts);
  }

  test('a later job skips the first 15 positions an earlier worker review answered, and stores those answers', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, user } = setup(now);
    const a = call('laptop');
    // The setup's job (4 plies) first: positions 0–4 answered.
    const w0 = acquireWork(a, false)!;
    expect(w0.skipPositions).toEqual([]);
    expect(await submitFor(a, w0, MOVES)).toEqual({ status: 204 });
    const ruy = insertReviewJob(app.deps.store, app.clock, { userId: user.id, subjectKind: 'game', subjectId: 'g2', movesKey: movesKey(START, RUY), startFen: START, movesUci: RUY });
    const w1 = acquireWork(a, false)!;
    // 1.e4 e5 2.Nf3 Nc6 are positions 0–4 of both games.
    expect(w1.skipPositions).toEqual([0, 1, 2, 3, 4]);
    expect(await submitFor(a, w1, RUY)).toEqual({ status: 204 });
    const stored = engineOutput(app.deps.store, user.id, ruy.movesKey)!;
    const first = engineOutput(app.deps.store, user.id, movesKey(START, MOVES))!;
    expect(stored.positions.slice(0, 5).map((p) => p.lines)).toEqual(first.positions.slice(0, 5).map((p) => p.lines));
    // The same 16 plies again: positions 0–14 are known, 15 and 16 are past lichess's 15 and searched again.
    insertReviewJob(app.deps.store, app.clock, { userId: user.id, subjectKind: 'study', subjectId: 's1', movesKey: movesKey(START, RUY), startFen: START, movesUci: RUY });
    const w2 = acquireWork(a, false)!;
    expect(w2.skipPositions).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  });

  test('a transposition is known; another owner, or another node budget, knows nothing', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, user, job } = setup(now);
    app.deps.store.db.delete(reviewJobs).run();
    insertReviewJob(app.deps.store, app.clock, { userId: user.id, subjectKind: 'game', subjectId: 'a', movesKey: movesKey(START, FOUR_A), startFen: START, movesUci: FOUR_A });
    const a = call('laptop');
    const wa = acquireWork(a, false)!;
    expect(await submitFor(a, wa, FOUR_A)).toEqual({ status: 204 });
    insertReviewJob(app.deps.store, app.clock, { userId: user.id, subjectKind: 'game', subjectId: 'b', movesKey: movesKey(START, FOUR_B), startFen: START, movesUci: FOUR_B });
    // Positions 0–2 (start, 1.e4, 1…e5) and 6 (the Four Knights) meet; 3–5 do not.
    expect(acquireWork(a, false)!.skipPositions).toEqual([0, 1, 2, 6]);

    const other = app.addUser().user;
    const { key } = issueWorkerKey(app.deps.store, app.clock, other.id, 'theirs');
    const theirs: WorkerCall = { ...a, holder: verifyWorkerKey(app.deps.store, key)! };
    insertReviewJob(app.deps.store, app.clock, { userId: other.id, subjectKind: 'game', subjectId: 'c', movesKey: movesKey(START, FOUR_A), startFen: START, movesUci: FOUR_A });
    expect(acquireWork(theirs, false)!.skipPositions).toEqual([]);

    insertReviewJob(app.deps.store, app.clock, { userId: user.id, subjectKind: 'study', subjectId: 'd', movesKey: movesKey(START, FOUR_A), startFen: START, movesUci: FOUR_A });
    const deeper: WorkerCall = { ...a, settings: { ...a.settings, nodes: 1_000_000 } };
    expect(acquireWork(deeper, false)!.skipPositions).toEqual([]);
    expect(job.userId).toBe(user.id);
  });

  test('a skip the job did not list is refused; a position that became known is taken as searched', async () => {
    const now = { t: Date.parse('2026-11-20T12:00:00Z') };
    const { call, user } = setup(now);
    const a = call('laptop');
    const b = call('desktop');
    insertReviewJob(app.deps.store, app.clock, { userId: user.id, subjectKind: 'game', subjectId: 'g2', movesKey: movesKey(START, FOUR_A), startFen: START, movesUci: FOUR_A });
    // Both jobs out at once, nothing known yet.
    const w0 = acquireWork(a, false)!;
    const w1 = acquireWork(b, false)!;
    expect([w0.skipPositions, w1.skipPositions]).toEqual([[], []]);
    expect(await submitFor(a, w0, MOVES)).toEqual({ status: 204 });
    // Positions 0–4 are known now; b searched them anyway, which is taken.
    expect(await submitFor(b, w1, FOUR_A)).toEqual({ status: 204 });
    insertReviewJob(app.deps.store, app.clock, { userId: user.id, subjectKind: 'study', subjectId: 's', movesKey: movesKey(START, FOUR_B), startFen: START, movesUci: FOUR_B });
    const w2 = acquireWork(a, false)!;
    const bad = answer(FOUR_B);
    const analysis = bad.analysis.map((e, i) => (i === 4 ? { skipped: true as const } : w2.skipPositions.includes(i) ? { skipped: true as const } : e));
    const out = await submitAnalysis(a, w2.work.id, { ...bad, analysis }, opts);
    expect(out).toMatchObject({ status: 400 });
    expect((out as { error: string }).error).toContain('analysis[4]: skipped, but position 4 is not in skipPositions');
  });
});
