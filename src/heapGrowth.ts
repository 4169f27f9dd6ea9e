import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived its last full collection before it
 * collects again, in percent (V8's `--heap-growing-percent`, flag-definitions.h). Left to itself V8
 * picks a factor of up to 4 for a small heap. A long-running server here keeps a small live set
 * (about 30 MB) but recomputes an owner's aggregates after writes (get_chess_stats reads up to
 * 10,000 games, some 40 MB of objects that outlive the young generation and are garbage the moment
 * the answer is built), so by default several recomputations pile up before V8 looks: 255–275 MB
 * peak resident after six of them at 100,000 games, 190–200 MB at 100%. 50% went lower (180 MB) but
 * ran full collections so often under plain read load that p99 doubled (6–10 ms to 12–19 ms for a
 * list page, server on one core); 100% kept p99 and throughput at the default's.
 * Measured by `npm run bench scale` ("server peak RSS" rows; issue 13's target is 250 MB).
 */
export const HEAP_GROWING_PERCENT = 100;

/**
 * For the long-running processes (`serve`, `mcp`), called before they open the store. V8 reads the
 * flag at every full collection, so setting it at run time takes effect from the next one.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
