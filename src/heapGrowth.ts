import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived its last full collection before it
 * collects again, in percent (V8's `--heap-growing-percent`, flag-definitions.h). Left to itself V8
 * picks a factor of up to 4 for a small heap: a server whose live set is about 30 MB peaked at
 * 251–253 MB resident serving reads at 100,000 games, and at 261–278 MB once aggregates over 10,000
 * games were recomputed after writes (their objects outlive the young generation and are garbage the
 * moment the answer is built). At 100%: 174–188 MB and 187–203 MB, with the same throughput and p99.
 * 50% went lower still but ran full collections so often under plain read load that p99 doubled
 * (6–10 ms to 12–19 ms for a list page, server on one core). Figures: `npm run bench scale`, the
 * "server peak RSS" rows (issue 13's target is 250 MB).
 */
export const HEAP_GROWING_PERCENT = 100;

/**
 * For the long-running processes (`serve`, `mcp`), called before they open the store. V8 reads the
 * flag at every full collection, so setting it at run time takes effect from the next one.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
