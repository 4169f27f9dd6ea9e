import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { parsePgn, START_FEN } from '../../../src/chess/pgn.js';
import type { StoredAnalysis } from '../../../src/chess/engineOutput.js';
import { systemClock } from '../../../src/clock.js';
import type { Analyser } from '../../../src/engine/pool.js';
import { createUser } from '../../../src/services/accounts/accounts.js';
import { insertGames, movesColumns } from '../../../src/services/games/gameWriter.js';
import { bulkReview } from '../../../src/services/review/bulk.js';
import { insertReviewJob, REVIEW_PRIORITY, ReviewQueue } from '../../../src/services/review/queue.js';
import { openStore, storeFile, type Store } from '../../../src/store/db.js';
import { games, reviewJobs } from '../../../src/store/schema/index.js';
import { makeAnalysis } from '../../helpers/analysis.js';
import { backTo0011 } from '../../helpers/preOwnerAnalyses.js';

/**
 * Issue 30 item 2 and issue 27 item 5: one active review job per game, enforced by the store
 * (migration 0010), so the engine reviews each game once whoever queues it; and one process at a
 * time works the queue, so the engines running are one process's configured count.
 */
const worker = fileURLToPath(new URL('../../helpers/bulkWorker.ts', import.meta.url));
const PGNS = ['1. e4 e5 2. Nf3 Nc6 *', '1. d4 d5 2. c4 e6 *', '1. c4 e5 2. Nc3 Nf6 *', '1. Nf3 d5 2. g3 Nf6 *', '1. e4 c5 2. Nf3 d6 *', '1. d4 Nf6 2. c4 g6 *'];
const uciOf = (pgn: string) => parsePgn(pgn).plies.map((p) => p.uci);
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function tempStore(): { file: string; store: Store; userId: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-active-'));
  const file = storeFile(dir);
  const store = openStore(file);
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => store.close());
  const user = createUser(store, systemClock, { displayName: 'Rowan', email: 'rowan@example.test' });
  insertGames(
    store,
    systemClock,
    PGNS.map((pgn, i) => ({
      game: {
        userId: user.id, provider: 'siteB', sourceId: `s${i}`, playedAt: `2026-10-0${i + 1}T12:00:00Z`, colour: 'white', result: 'draw',
        opponent: 'Them', timeClass: 'blitz', rated: true, sourceUrl: 'https://example.test', ...movesColumns(parsePgn(pgn), `h${i}`), pgnHash: null,
      },
    })),
  );
  return { file, store, userId: user.id };
}

/** A second connection to the store file, as another process has. */
function connection(file: string): Store {
  const store = openStore(file);
  cleanup.push(() => store.close());
  return store;
}

/**
 * A stand-in engine that records each line it analyses and how many analyses run at once across
 * every analyser sharing `tally` (the machine's engines); `capacity` engines each.
 */
function countingAnalyser(tally: { seen: string[]; now: number; peak: number }, capacity = 1, ms = 60): Analyser {
  let busy = 0;
  return {
    capacity,
    idle: () => capacity - busy,
    async analyse(_fen, movesUci): Promise<StoredAnalysis> {
      busy += 1;
      tally.now += 1;
      tally.peak = Math.max(tally.peak, tally.now);
      tally.seen.push(movesUci.join(' '));
      try {
        await new Promise((r) => setTimeout(r, ms));
        const pgn = PGNS.find((p) => uciOf(p).join(' ') === movesUci.join(' '))!;
        const san = parsePgn(pgn).plies.map((p) => p.san);
        return makeAnalysis({ sanMoves: san, evals: san.map(() => 20).concat(20) });
      } finally {
        busy -= 1;
        tally.now -= 1;
      }
    },
    async close() {},
  };
}

const everyLine = () => PGNS.map((p) => uciOf(p).join(' ')).sort();
const jobsPerGame = (store: Store) => {
  const n = new Map<string, number>();
  for (const j of store.db.select().from(reviewJobs).all()) n.set(j.subjectId, (n.get(j.subjectId) ?? 0) + 1);
  return [...n.values()];
};

describe('one active review job per game', () => {
  test('the store refuses a second active job for a game or for the same moves; queueing again returns the active job', () => {
    const { store, userId } = tempStore();
    const g = store.db.select().from(games).all()[0];
    const req = { userId, subjectKind: 'game' as const, subjectId: g.id, movesKey: g.movesKey!, startFen: START_FEN, movesUci: uciOf(PGNS[0]) };
    const first = insertReviewJob(store, systemClock, req);
    expect(insertReviewJob(store, systemClock, req).id).toBe(first.id);
    expect(insertReviewJob(store, systemClock, { ...req, subjectId: 'another game, same moves' }).id).toBe(first.id);
    expect(store.db.select().from(reviewJobs).all()).toHaveLength(1);
    // The index itself, whatever the code path: a raw second active row is refused.
    const raw = store.sqlite.prepare(
      `INSERT INTO review_jobs (id, user_id, subject_kind, subject_id, moves_key, start_fen, moves_uci, status, attempts, created_at, priority) VALUES (?, ?, 'game', ?, ?, ?, '', ?, 0, '2026-01-01', 0)`,
    );
    expect(() => raw.run('dup', userId, g.id, 'other-key', START_FEN, 'queued')).toThrow(/UNIQUE/);
    expect(() => raw.run('dup2', userId, 'other-subject', g.movesKey, START_FEN, 'running')).toThrow(/UNIQUE/);
    // Finished jobs are history: any number of them, and a new active job beside them.
    store.sqlite.prepare(`UPDATE review_jobs SET status = 'failed'`).run();
    expect(insertReviewJob(store, systemClock, req).id).not.toBe(first.id);
  });

  test('migration 0010 keeps one active job per game from an older store that had duplicates: the running one, else the oldest', () => {
    const { file, store, userId } = tempStore();
    const [g1, g2] = store.db.select().from(games).all();
    // Back to the store as 0009 left it, with the duplicates an older `review` run made.
    backTo0011(store.sqlite);
    store.sqlite.exec('DROP INDEX review_jobs_active_subject; DROP INDEX review_jobs_active_moves; DROP TABLE review_worker_lease');
    store.sqlite.exec('DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations)');
    const raw = store.sqlite.prepare(
      `INSERT INTO review_jobs (id, user_id, subject_kind, subject_id, moves_key, start_fen, moves_uci, status, attempts, created_at, priority) VALUES (?, ?, 'game', ?, ?, ?, '', ?, 0, ?, -1)`,
    );
    raw.run('g1-old', userId, g1.id, g1.movesKey, START_FEN, 'queued', '2026-01-01T00:00:00Z');
    raw.run('g1-new', userId, g1.id, g1.movesKey, START_FEN, 'queued', '2026-01-02T00:00:00Z');
    raw.run('g1-done', userId, g1.id, g1.movesKey, START_FEN, 'complete', '2025-12-01T00:00:00Z');
    raw.run('g2-queued', userId, g2.id, g2.movesKey, START_FEN, 'queued', '2026-01-01T00:00:00Z');
    raw.run('g2-running', userId, g2.id, g2.movesKey, START_FEN, 'running', '2026-01-02T00:00:00Z');
    store.close();
    const reopened = connection(file);
    const ids = reopened.db.select({ id: reviewJobs.id }).from(reviewJobs).all().map((r) => r.id).sort();
    expect(ids).toEqual(['g1-done', 'g1-old', 'g2-running']);
  });

  test('a bulk run killed with -9 and run again reviews every game exactly once, with one job per game', async () => {
    const { file, store, userId } = tempStore();
    const child = spawn(process.execPath, ['--import', 'tsx', worker, file, userId], { stdio: ['ignore', 'pipe', 'pipe'] });
    cleanup.push(() => child.kill('SIGKILL'));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => ((out += d.toString()), out.includes('analysing') && resolve()));
      child.once('exit', (code) => reject(new Error(`bulk run exited ${code} before analysing: ${out}`)));
    });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    // The killed run left its jobs: one running (its lease's process is gone), the rest queued.
    expect(jobsPerGame(store)).toEqual(PGNS.map(() => 1));

    const tally = { seen: [] as string[], now: 0, peak: 0 };
    const again = connection(file);
    const reviews = new ReviewQueue(again, systemClock, () => countingAnalyser(tally));
    const result = await bulkReview({ store: again, clock: systemClock, reviews }, userId, {});
    await reviews.stop();
    expect(result).toMatchObject({ done: PGNS.length, failed: 0, total: PGNS.length, alreadyQueued: PGNS.length });
    expect(tally.seen.sort()).toEqual(everyLine());
    expect(jobsPerGame(store)).toEqual(PGNS.map(() => 1));
    expect(store.db.select().from(reviewJobs).all().every((j) => j.status === 'complete')).toBe(true);
  }, 60_000);

  test('a bulk run beside a serving process working requests for the newest games reviews every game exactly once', async () => {
    const { file, store, userId } = tempStore();
    const newest = store.db.select().from(games).all().sort((a, b) => b.playedAt.localeCompare(a.playedAt)).slice(0, 3);
    const tally = { seen: [] as string[], now: 0, peak: 0 };
    const serve = new ReviewQueue(connection(file), systemClock, () => countingAnalyser(tally, 1, 150));
    for (const g of newest) {
      serve.enqueue({ userId, subjectKind: 'game', subjectId: g.id, movesKey: g.movesKey!, startFen: START_FEN, movesUci: uciOf(PGNS[Number(g.sourceId.slice(1))]), priority: REVIEW_PRIORITY.request });
    }
    serve.startWorkers();
    cleanup.push(() => serve.stop());
    await new Promise((r) => setTimeout(r, 50)); // serve has taken the first request
    const cli = connection(file);
    const reviews = new ReviewQueue(cli, systemClock, () => countingAnalyser(tally));
    const result = await bulkReview({ store: cli, clock: systemClock, reviews }, userId, {});
    await reviews.stop();
    expect(result.failed).toBe(0);
    expect(result.done).toBe(result.total);
    expect(result.alreadyQueued).toBeGreaterThan(0);
    expect(tally.seen.sort()).toEqual(everyLine());
    expect(jobsPerGame(store)).toEqual(PGNS.map(() => 1));
  }, 60_000);
});

describe('engines per machine', () => {
  test('two processes on one store, 2 engines each: at most 2 analyses run at once, and every job runs once', async () => {
    const { file, store, userId } = tempStore();
    for (const g of store.db.select().from(games).all()) {
      insertReviewJob(store, systemClock, { userId, subjectKind: 'game', subjectId: g.id, movesKey: g.movesKey!, startFen: START_FEN, movesUci: uciOf(PGNS[Number(g.sourceId.slice(1))]) });
    }
    const tally = { seen: [] as string[], now: 0, peak: 0 };
    const a = new ReviewQueue(connection(file), systemClock, () => countingAnalyser(tally, 2, 150));
    const b = new ReviewQueue(connection(file), systemClock, () => countingAnalyser(tally, 2, 150));
    a.startWorkers();
    b.startWorkers();
    cleanup.push(() => a.stop(), () => b.stop());
    for (let i = 0; i < 200 && store.db.select().from(reviewJobs).all().some((j) => j.status !== 'complete'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(store.db.select().from(reviewJobs).all().every((j) => j.status === 'complete')).toBe(true);
    expect(tally.seen.sort()).toEqual(everyLine());
    expect(tally.peak).toBe(2);
    // The queue empty, the working process let the queue go: the next job may go to either.
    await new Promise((r) => setTimeout(r, 100));
    expect(store.sqlite.prepare('SELECT count(*) AS n FROM review_worker_lease').get()).toEqual({ n: 0 });
  }, 30_000);
});
