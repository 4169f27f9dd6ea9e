import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long one slice of a derived read may hold the event loop (issue 37: another owner's p99 within 50 ms). */
export const SLICE_MS = 8;

/**
 * Runs a computation written as a generator that yields now and then (a few hundred positions replayed) in slices
 * of at most about SLICE_MS, giving the event loop back between them: a derived read that replays thousands of
 * openings (the repertoire deviations, a scouted player's report) then delays other requests by one slice, not by
 * the whole computation.
 */
export async function inSlices<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const started = performance.now();
    let step = steps.next();
    while (!step.done && performance.now() - started < SLICE_MS) step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

/** Runs such a generator to its end at once (tests, small inputs). */
export function atOnce<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
