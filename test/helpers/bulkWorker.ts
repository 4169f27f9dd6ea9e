/**
 * A `chess-footprint review` run in a process of its own, for the killed-and-re-run test
 * (test/services/review/oneActive.test.ts): opens the store given as argv[2] and bulk-reviews the
 * owner argv[3]'s games with an engine that never answers, printing `analysing` once the first game
 * is under way. The test kills it with -9 there.
 */
import { systemClock } from '../../src/clock.js';
import { bulkReview } from '../../src/services/review/bulk.js';
import { ReviewQueue } from '../../src/services/review/queue.js';
import { openStore } from '../../src/store/db.js';

const store = openStore(process.argv[2]);
const reviews = new ReviewQueue(store, systemClock, () => ({
  analyse: () => {
    process.stdout.write('analysing\n');
    return new Promise(() => {});
  },
  close: async () => {},
}));
void bulkReview({ store, clock: systemClock, reviews }, process.argv[3], {});
