/**
 * A review worker in a process of its own, for the SIGSTOP scenario (test/bench/pausedHolder.ts): opens the
 * store given as argv[2] and works its queue with one engine of the stand-in slow engine (argv[3]) until the
 * queue is done, printing `claimed` when it runs the job and `done` when the queue holds no unfinished job.
 */
import { systemClock } from '../../src/clock.js';
import { EnginePool } from '../../src/engine/pool.js';
import { ReviewQueue } from '../../src/services/review/queue.js';
import { openStore } from '../../src/store/db.js';

const store = openStore(process.argv[2]);
const pool = new EnginePool({ path: process.argv[3], build: 'lite', threads: 1, hashMb: 16, multiPv: 1, size: 1, nodesPerPosition: 100, searchTimeoutMs: 120_000 });
const queue = new ReviewQueue(store, systemClock, () => pool);
const unfinished = store.sqlite.prepare(`SELECT count(*) AS n FROM review_jobs WHERE status IN ('queued', 'running')`);
for (;;) {
  const worked = queue.runOnce();
  process.stdout.write('polling\n');
  if (await worked) process.stdout.write('worked\n');
  if ((unfinished.get() as { n: number }).n === 0) break;
  await new Promise((r) => setTimeout(r, 500));
}
process.stdout.write('done\n');
await queue.stop();
await pool.close();
store.close();
