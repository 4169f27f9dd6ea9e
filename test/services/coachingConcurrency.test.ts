import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, test } from 'vitest';
import { storeFile } from '../../src/store/db.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { countRows, OPERA_FENS, RUY_LOPEZ_FEN } from './coachingFixtures.js';

let app: TestApp;
afterEach(() => app.close());

/** Runs `n` writers, each on its own connection in its own thread, released at the same instant. */
async function race(n: number, data: { userId: string; op: 'focus' | 'position'; fen?: string }): Promise<number[]> {
  const barrier = new SharedArrayBuffer(8);
  const flag = new Int32Array(barrier);
  const workers = Array.from(
    { length: n },
    () =>
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
});
