// A separate connection to the same store file, run in its own worker thread: it waits at a
// shared barrier, then attempts one coaching write, so several writers really race.
import { parentPort, workerData } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { systemClock } from '../../../src/clock.js';
import type { PersonalCtx } from '../../../src/context.js';
import { ApiError } from '../../../src/errors.js';
import { setTrainingFocus } from '../../../src/services/coaching/focus.js';
import { savePosition } from '../../../src/services/coaching/positions.js';
import { uploadStudyGame } from '../../../src/services/study/study.js';
import { openStore } from '../../../src/store/db.js';
import { users } from '../../../src/store/schema/index.js';

const { file, userId, op, fen, barrier } = workerData as { file: string; userId: string; op: 'focus' | 'position' | 'study'; fen: string; barrier: SharedArrayBuffer };
const store = openStore(file);
const user = store.db.select().from(users).where(eq(users.id, userId)).get()!;
const ctx = { store, clock: systemClock, user, limiter: { take() {}, refund() {}, enabled: false } } as unknown as PersonalCtx;
const flag = new Int32Array(barrier);
Atomics.add(flag, 1, 1); // ready
Atomics.wait(flag, 0, 0); // until the main thread opens the gate
let status = 200;
try {
  if (op === 'focus') setTrainingFocus(ctx, { title: `focus from ${process.pid}/${Math.random()}` });
  else if (op === 'position') savePosition(ctx, { fen, label: 'race' });
  // For a study race, `fen` carries the PGN text.
  else uploadStudyGame(ctx, fen);
} catch (err) {
  status = err instanceof ApiError ? err.status : 500;
  if (status === 500) console.error(err);
}
store.close();
parentPort!.postMessage(status);
