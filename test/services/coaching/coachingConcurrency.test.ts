import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, test } from 'vitest';
import { storeFile } from '../../../src/store/db.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { countRows, OPERA_FENS, RUY_LOPEZ_FEN } from './coachingFixtures.js';

let app: TestApp;
afterEach(() => app.close());

type Writer = { userId: string; op: 'focus' | 'position' | 'study'; fen?: string };

/** Runs `n` writers, each on its own connection in its own thread, released at the same instant. */
async function race(n: number, data: Writer): Promise<number[]> {
  return raceAll(Array.from({ length: n }, () => data));
}

async function raceAll(writers: Writer[]): Promise<number[]> {
  const n = writers.length;
  const barrier = new SharedArrayBuffer(8);
  const flag = new Int32Array(barrier);
  const workers = writers.map(
    (data) =>
      new Worker(new URL('./concurrentWriter.boot.mjs', import.meta.url), {
        workerData: { file: storeFile(app.dir), fen: data.fen ?? '', ...data, barrier },
      }),
  );
  const results = workers.map(
    (w) =>
      new Promise<number>((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
      }),
  );
  const failed = Promise.race(results).then(
    () => undefined,
    (err: unknown) => err,
  );
  let early: unknown;
  failed.then((e) => (early = e));
  while (Atomics.load(flag, 1) < n && early === undefined) await new Promise((r) => setTimeout(r, 10));
  if (early !== undefined) throw early;
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  const statuses = await Promise.all(results);
  await Promise.all(workers.map((w) => w.terminate()));
  return statuses.sort();
}

describe('concurrent coaching writes', { timeout: 120_000 }, () => {
  test('six simultaneous focus creates on an empty slate: exactly 3 succeed, 3 get 409', async () => {
    app = makeTestApp();
    const { user } = app.addUser();
    const statuses = await race(6, { userId: user.id, op: 'focus' });
    expect(statuses).toEqual([200, 200, 200, 409, 409, 409]);
    expect(countRows(app.deps.store, "coaching_focuses WHERE status = 'active'")).toBe(3);
  });

  test('six simultaneous saves at 498 positions: exactly 2 succeed, never a 501st', async () => {
    app = makeTestApp();
    const { user } = app.addUser();
    const insert = app.deps.store.sqlite.prepare('INSERT INTO saved_positions (id, user_id, fen, label, created_at) VALUES (?, ?, ?, ?, ?)');
    app.deps.store.sqlite.transaction(() => {
      for (let i = 0; i < 498; i += 1) insert.run(randomUUID(), user.id, OPERA_FENS[i % OPERA_FENS.length], `p${i}`, '2026-01-01T00:00:00.000Z');
    })();
    const statuses = await race(6, { userId: user.id, op: 'position', fen: RUY_LOPEZ_FEN });
    expect(statuses).toEqual([200, 200, 409, 409, 409, 409]);
    expect(countRows(app.deps.store, 'saved_positions')).toBe(500);
  });

  test('four simultaneous uploads of the same mainline make one study row, with every upload’s notes merged', async () => {
    app = makeTestApp();
    const { user } = app.addUser();
    // From the position after 1.e4 (a FEN header, so no opening lookup: the race is about the write).
    const header = '[SetUp "1"]\n[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]\n\n';
    const moves = ['1... e5', '2. Nf3', 'Nc6', '3. Bb5', 'a6', '4. Ba4'];
    // Upload k comments ply k+1 only: four different notes, one per ply, and the same moves.
    const pgns = [0, 1, 2, 3].map((k) => header + moves.map((m, i) => (i === k ? `${m} {note from upload ${k}}` : m)).join(' ') + ' *');
    const statuses = await raceAll(pgns.map((pgn) => ({ userId: user.id, op: 'study' as const, fen: pgn })));
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(countRows(app.deps.store, 'study_games')).toBe(1);
    expect(countRows(app.deps.store, 'study_notes')).toBe(4);
  });
});
