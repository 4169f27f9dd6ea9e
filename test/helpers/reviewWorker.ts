/**
 * A review worker in a process of its own, for the kill -9 test (test/services/review/killed.test.ts):
 * opens the store given as argv[2], claims the queued job and starts "reviewing" it with an engine
 * that never answers, printing `analysing <leaseOwner>` once it holds the lease. The test kills it.
 */
import { systemClock } from '../../src/clock.js';
import { ReviewQueue } from '../../src/services/review/queue.js';
import { openStore } from '../../src/store/db.js';

const store = openStore(process.argv[2]);
const queue = new ReviewQueue(store, systemClock, () => ({
  analyse: () => {
    process.stdout.write(`analysing ${queue.leaseOwner}\n`);
    return new Promise(() => {});
  },
  close: async () => {},
}));
void queue.runOnce();
