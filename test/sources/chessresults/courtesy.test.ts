import { describe, expect, test } from 'vitest';
import { CourtesyGate, type CourtesyTiming } from '../../../src/sources/chessresults/courtesy.js';
import { CourtesyCapReached } from '../../../src/sources/chessresults/errors.js';

/** Virtual time: sleep() moves the clock instead of waiting, so spacing is checked by arithmetic. */
function virtualTiming(): CourtesyTiming & { t: number } {
  const v = {
    t: 0,
    now: () => v.t,
    sleep: async (ms: number) => {
      v.t += ms;
    },
  };
  return v;
}

describe('CourtesyGate (1 request/s, one in flight, 8 s longest wait)', () => {
  test('12 concurrent requests: 9 run one at a time, 1000 ms apart; the other 3 are refused with 503 + Retry-After', async () => {
    const timing = virtualTiming();
    const gate = new CourtesyGate(1000, 8000, timing);
    const starts: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const work = async (i: number) => {
      starts.push(timing.now());
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 1)); // real async work, so overlaps would show
      inFlight -= 1;
      return i;
    };
    const settled = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => gate.run(() => work(i))));
    // Slots 0, 1000, …, 8000 are within the 8 s wait: requests 0–8 run. Request 9's slot (9000) is 1 s past it.
    expect(settled.slice(0, 9).every((s) => s.status === 'fulfilled')).toBe(true);
    const refused = settled.slice(9);
    for (const s of refused) {
      expect(s.status).toBe('rejected');
      const err = (s as PromiseRejectedResult).reason as CourtesyCapReached;
      expect(err).toBeInstanceOf(CourtesyCapReached);
      expect(err.status).toBe(503);
      expect(err.message).toMatch(/^the global outbound courtesy cap to the tournament source was reached; retry after \d+ s$/);
    }
    // (9000 − 8000) / 1000 = 1 s for the first refused one.
    expect(((refused[0] as PromiseRejectedResult).reason as CourtesyCapReached).headers['Retry-After']).toBe('1');
    expect(starts).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000]);
    expect(maxInFlight).toBe(1);
    expect(gate.maxInFlightSeen).toBe(1);
  });

  test('after a quiet spell a request runs at once', async () => {
    const timing = virtualTiming();
    const gate = new CourtesyGate(1000, 8000, timing);
    await gate.run(async () => 1);
    timing.t += 5000;
    const before = timing.t;
    await gate.run(async () => 2);
    expect(timing.t).toBe(before); // no sleep needed
  });

  test('a failed request still frees the gate for the next one', async () => {
    const timing = virtualTiming();
    const gate = new CourtesyGate(1000, 8000, timing);
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
    expect(timing.t).toBe(1000);
  });
});
