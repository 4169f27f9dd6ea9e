import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived its last full collection before it
 * collects again, in percent (V8's `--heap-growing-percent`, flag-definitions.h). Left to itself V8
 * picks a factor of up to 4 for a small heap. A long-running server here keeps a small live set
 * (about 30 MB) but recomputes an owner's aggregates after writes (get_chess_stats reads up to
 * 10,000 games, some 40 MB of short-lived objects that outlive the young generation), so with the
 * default each recomputation is left in the heap for several more before V8 looks: 270 MB peak RSS
 * after six recomputations at 100,000 games against 180 MB at 50%, at the same speed
 * (`npm run bench scale`, "server peak RSS" rows; issue 13's target is 250 MB).
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * For the long-running processes (`serve`, `mcp`), called before they open the store. The flag is
 * read by V8 at every full collection, so setting it at run time takes effect from the next one.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
