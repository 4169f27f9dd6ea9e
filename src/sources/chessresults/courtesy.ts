import { CourtesyCapReached } from './errors.js';

/**
 * The process-wide outbound courtesy cap toward chess-results.com (spec 7/8 leave the value open):
 * at most one request in flight, request starts at least `intervalMs` apart (1 request per second),
 * and a caller waits for its turn at most `maxWaitMs`. A request whose turn would come later than that
 * is refused at once with the retryable CourtesyCapReached (503 + Retry-After), so a burst of callers
 * never builds an unbounded queue. One tool call costs up to three requests (starting list, crosstable,
 * round pairings), so the 8 s default lets about three uncached calls queue behind one another.
 */
export const COURTESY_INTERVAL_MS = 1000;
export const COURTESY_MAX_WAIT_MS = 8000;

export interface CourtesyTiming {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realTiming: CourtesyTiming = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class CourtesyGate {
  /** Earliest start reserved by the last admitted request. */
  private lastSlot = -Infinity;
  /** Settles when the last admitted request has finished (one in flight). */
  private tail: Promise<void> = Promise.resolve();
  /** When the last request actually started: starts stay `intervalMs` apart even after a slow one. */
  private lastStart = -Infinity;
  private inFlight = 0;
  maxInFlightSeen = 0;

  constructor(
    readonly intervalMs = COURTESY_INTERVAL_MS,
    readonly maxWaitMs = COURTESY_MAX_WAIT_MS,
    private readonly timing: CourtesyTiming = realTiming,
  ) {}

  /** Runs `fn` in its turn, or throws CourtesyCapReached without running it. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const now = this.timing.now();
    const slot = Math.max(now, this.lastSlot + this.intervalMs);
    if (slot - now > this.maxWaitMs) throw new CourtesyCapReached((slot - now - this.maxWaitMs) / 1000);
    this.lastSlot = slot;
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await previous;
      const wait = Math.max(slot, this.lastStart + this.intervalMs) - this.timing.now();
      if (wait > 0) await this.timing.sleep(wait);
      this.lastStart = this.timing.now();
      this.inFlight += 1;
      this.maxInFlightSeen = Math.max(this.maxInFlightSeen, this.inFlight);
      try {
        return await fn();
      } finally {
        this.inFlight -= 1;
      }
    } finally {
      release();
    }
  }
}
