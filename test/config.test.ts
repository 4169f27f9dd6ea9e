import { describe, expect, test, vi } from 'vitest';
import { ConfigError, loadConfig, MAX_TIMER_MS } from '../src/config.js';
import { repeatEvery, type TimerApi } from '../src/timers.js';

const load = (env: Record<string, string>) => loadConfig({ dataDir: '/tmp/cfp-config-test' }, env);
const refusal = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
};

/**
 * Every numeric setting at its edges: the lowest and highest accepted values load, one step outside
 * each is refused with a message naming the variable, and so are text, fractions for integers, empty
 * exponents and overflow ("1e400" is Infinity to Number()).
 */
const NUMERIC: Array<{ env: string; min: number; max: number; read: (c: ReturnType<typeof load>) => unknown; int: boolean }> = [
  { env: 'PORT', min: 0, max: 65535, read: (c) => c.port, int: true },
  { env: 'CFP_ENGINE_THREADS', min: 1, max: 1024, read: (c) => c.engine.threads, int: true },
  { env: 'CFP_ENGINE_HASH_MB', min: 1, max: 33_554_432, read: (c) => c.engine.hashMb, int: true },
  { env: 'CFP_ENGINE_WORKERS', min: 0, max: 64, read: (c) => c.engine.workers, int: true },
  { env: 'CFP_WORKER_NODES', min: 1000, max: 1_000_000_000, read: (c) => c.reviewWorkers.nodes, int: true },
  { env: 'CFP_WORKER_TIMEOUT_MS', min: 1000, max: 600_000, read: (c) => c.reviewWorkers.timeoutMs, int: true },
  { env: 'CFP_WORKER_WAIT_SECONDS', min: 0, max: 86_400, read: (c) => c.reviewWorkers.localWaitSeconds, int: true },
  { env: 'CFP_ENGINE_NODES', min: 1000, max: 1_000_000_000, read: (c) => c.engine.nodesPerPosition, int: true },
  { env: 'CFP_ENGINE_MULTIPV', min: 1, max: 5, read: (c) => c.engine.multiPv, int: true },
  { env: 'CFP_SYNC_INTERVAL_MINUTES', min: 1, max: 525_600, read: (c) => c.syncIntervalMinutes, int: true },
  { env: 'CFP_REPORT_CHECK_MINUTES', min: 1, max: 1440, read: (c) => c.reportCheckMinutes, int: true },
  { env: 'CFP_SMTP_PORT', min: 1, max: 65535, read: (c) => c.smtp.port, int: true },
  { env: 'CFP_SOURCE_CONNECT_TIMEOUT_MS', min: 100, max: 120_000, read: (c) => c.sources.connectTimeoutMs, int: true },
  { env: 'CFP_SOURCE_IDLE_TIMEOUT_MS', min: 1000, max: 600_000, read: (c) => c.sources.idleTimeoutMs, int: true },
  { env: 'CFP_SOURCE_MAX_RETRIES', min: 0, max: 10, read: (c) => c.sources.maxRetries, int: true },
  { env: 'CFP_SOURCE_MAX_RETRY_AFTER_SECONDS', min: 1, max: 86_400, read: (c) => c.sources.maxRetryAfterSeconds, int: true },
];

describe.each(NUMERIC)('$env', ({ env, min, max, read, int }) => {
  test('accepts its lowest and highest values', () => {
    expect(read(load({ [env]: String(min) }))).toBe(min);
    expect(read(load({ [env]: String(max) }))).toBe(max);
    expect(read(load({ [env]: ` ${max} ` }))).toBe(max);
  });
  test('refuses one step outside either edge, naming the variable', () => {
    expect(refusal({ [env]: String(min - 1) })).toMatch(new RegExp(`${env}="${min - 1}".*at least ${min}$`));
    expect(refusal({ [env]: String(max + 1) })).toMatch(new RegExp(`${env}="${max + 1}".*at most ${max}$`));
  });
  test('refuses text, overflow and (for integers) fractions', () => {
    for (const bad of ['abc', '12abc', '0x10', '1e400', 'Infinity', 'NaN']) expect(refusal({ [env]: bad })).toContain(env);
    if (int) expect(refusal({ [env]: String(min + 0.5) })).toMatch(new RegExp(`${env}.*expected a whole number`));
  });
});

test('unset and empty variables take the defaults', () => {
  const c = load({ CFP_ENGINE_THREADS: '' });
  expect(c.engine).toMatchObject({ threads: 1, hashMb: 32, workers: 2, nodesPerPosition: 30_000, deepNodes: 100_000, build: 'full', multiPv: 2, path: null });
  expect(c).toMatchObject({ port: 3000, syncIntervalMinutes: 360, reportCheckMinutes: 15 });
  expect(c.sources).toMatchObject({ connectTimeoutMs: 15_000, idleTimeoutMs: 60_000, maxRetries: 4, maxRetryAfterSeconds: 900 });
  expect(c.smtp).toEqual({ host: null, port: null, from: null, user: null, pass: null, tls: 'starttls' });
});

test('every bad setting is named in one message, not only the first', () => {
  const msg = refusal({ PORT: '70000', CFP_ENGINE_MULTIPV: '9', CFP_SMTP_TLS: 'maybe' });
  expect(msg).toContain('PORT');
  expect(msg).toContain('CFP_ENGINE_MULTIPV');
  expect(msg).toContain('CFP_SMTP_TLS');
});

describe('CFP_RATE_LIMITS', () => {
  test('limit 1..1,000,000 calls per window of 1..86,400 s', () => {
    expect(load({ CFP_RATE_LIMITS: 'analysis:1/1' }).rateLimits).toMatchObject({ analysis: { limit: 1, windowSeconds: 1 } });
    expect(load({ CFP_RATE_LIMITS: 'analysis:1000000/86400' }).rateLimits).toMatchObject({ analysis: { limit: 1_000_000, windowSeconds: 86_400 } });
    expect(load({ CFP_RATE_LIMITS: 'off' }).rateLimits).toBe('off');
    for (const bad of ['analysis:0/60', 'analysis:1000001/60', 'analysis:30/0', 'analysis:30/86401', 'analysis:1.5/60', 'analysis:x/60']) {
      expect(refusal({ CFP_RATE_LIMITS: bad })).toContain('CFP_RATE_LIMITS');
    }
    expect(refusal({ CFP_RATE_LIMITS: 'nosuch:1/1' })).toContain('families: personal');
  });
});

test('a CLI --port that is not a number is refused like PORT', () => {
  expect(() => loadConfig({ dataDir: '/tmp', port: Number('abc') }, {})).toThrow(/PORT/);
});

describe('long intervals are scheduled without the 2^31−1 ms timer overflow', () => {
  /** A fake timer API that records each delay asked for and fires by hand. */
  function fakeTimers() {
    const pending: Array<{ fn: () => void; ms: number }> = [];
    const api: TimerApi = {
      setTimeout: (fn, ms) => {
        const t = { fn, ms };
        pending.push(t);
        return t;
      },
      clearTimeout: (h) => {
        const i = pending.indexOf(h as (typeof pending)[number]);
        if (i >= 0) pending.splice(i, 1);
      },
    };
    return { api, pending, fire: () => pending.shift()!.fn() };
  }

  test('the maximum interval (a year) waits in steps no longer than 2^31−1 ms, and fires once per interval', () => {
    const yearMs = 525_600 * 60_000;
    const t = fakeTimers();
    const fn = vi.fn();
    const timer = repeatEvery(yearMs, fn, { firstDelayMs: 10, timers: t.api });
    t.fire(); // first run
    expect(fn).toHaveBeenCalledTimes(1);
    let waited = 0;
    while (fn.mock.calls.length === 1) {
      const next = t.pending[0];
      expect(next.ms).toBeGreaterThan(0);
      expect(next.ms).toBeLessThanOrEqual(MAX_TIMER_MS);
      waited += next.ms;
      t.fire();
    }
    expect(waited).toBe(yearMs);
    timer.stop();
    expect(t.pending).toHaveLength(0);
  });

  test('a normal interval is one timer', () => {
    const t = fakeTimers();
    const fn = vi.fn();
    repeatEvery(60_000, fn, { timers: t.api });
    expect(t.pending.map((p) => p.ms)).toEqual([60_000]);
    t.fire();
    expect(fn).toHaveBeenCalledTimes(1);
    expect(t.pending.map((p) => p.ms)).toEqual([60_000]);
  });
});

test('an empty CFP_DATA_DIR is unset: the default folder, never the current one (issue 30)', () => {
  const dir = loadConfig({}, { CFP_DATA_DIR: '' }).dataDir;
  expect(dir).not.toBe(process.cwd());
  expect(dir).toBe(loadConfig({}, {}).dataDir);
  expect(dir.endsWith('.chess-footprint')).toBe(true);
});
