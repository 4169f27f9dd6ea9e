import { MAX_TIMER_MS } from './config.js';

export interface TimerApi {
  setTimeout(fn: () => void, ms: number): object;
  clearTimeout(handle: unknown): void;
}

const nodeTimers: TimerApi = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * Calls `fn` every `intervalMs`, first after `firstDelayMs`. Node's timers take at most 2^31−1 ms and
 * fire after 1 ms when given more (a 36,000-minute interval became a 1 ms loop), so a longer wait is
 * made of steps of at most that length. Timers are unref'd: they never keep the process alive.
 */
export function repeatEvery(intervalMs: number, fn: () => void, opts: { firstDelayMs?: number; timers?: TimerApi } = {}): { stop(): void } {
  const timers = opts.timers ?? nodeTimers;
  let handle: unknown = null;
  let stopped = false;
  const wait = (ms: number, then: () => void) => {
    const step = Math.min(ms, MAX_TIMER_MS);
    const t = timers.setTimeout(() => {
      if (stopped) return;
      if (ms > step) wait(ms - step, then);
      else then();
    }, step);
    (t as { unref?(): unknown }).unref?.();
    handle = t;
  };
  const tick = () => {
    wait(intervalMs, tick);
    fn();
  };
  wait(opts.firstDelayMs ?? intervalMs, tick);
  return {
    stop() {
      stopped = true;
      timers.clearTimeout(handle);
    },
  };
}
