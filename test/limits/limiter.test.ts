import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import { ApiError, Messages } from '../../src/errors.js';
import { tools } from '../../tools/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { storeFile } from '../../src/store/db.js';
import { statSync, writeFileSync } from 'node:fs';
import { LIMITS_FILE } from '../../src/limits/limiter.js';
import { Database } from '../../src/store/sqlite.js';

const run = promisify(execFile);
const tool = (name: string) => tools.find((t) => t.name === name)!;
let app: TestApp;
afterEach(() => app?.close());

describe('token buckets in the store', () => {
  test('the (limit+1)th call in a window is a 429 with Retry-After; the bucket refills with time', async () => {
    app = makeTestApp({ env: { CFP_RATE_LIMITS: 'personal:3/60' } });
    const { token } = app.addUser();
    for (let i = 0; i < 3; i += 1) expect((await app.call(tool('get_profile'), {}, token)).status).toBe(200);
    const refused = await app.call(tool('get_profile'), {}, token);
    expect(refused.status).toBe(429);
    // Refill is 3 tokens per 60 s: one token takes 20 s.
    expect(refused.headers['Retry-After']).toBe('20');
    app.clock.advance(19_000);
    expect((await app.call(tool('get_profile'), {}, token)).status).toBe(429);
    app.clock.advance(1_000);
    expect((await app.call(tool('get_profile'), {}, token)).status).toBe(200);
  });

  test('the personal bucket is per user and shared by REST and MCP', async () => {
    app = makeTestApp({ env: { CFP_RATE_LIMITS: 'personal:2/60' } });
    const a = app.addUser();
    const b = app.addUser();
    expect((await app.call(tool('get_profile'), {}, a.token, { surface: 'rest', key: 'ip:1' })).status).toBe(200);
    expect((await app.call(tool('get_profile'), {}, a.token, { surface: 'mcp', key: 'mcp' })).status).toBe(200);
    expect((await app.call(tool('get_profile'), {}, a.token, { surface: 'rest', key: 'ip:2' })).status).toBe(429);
    expect((await app.call(tool('get_profile'), {}, b.token)).status).toBe(200);
  });

  test('public families: per caller over REST, one shared bucket over MCP, families separate', async () => {
    app = makeTestApp({ env: { CFP_RATE_LIMITS: 'library:1/60,calculator:1/60' } });
    const lib = tool('list_library_games');
    const calc = tool('calculate_ecf_rating_change');
    const input = { currentRating: 1800, games: '1800 w' };
    expect((await app.call(lib, {}, undefined, { surface: 'rest', key: 'ip:1' })).status).not.toBe(429);
    expect((await app.call(lib, {}, undefined, { surface: 'rest', key: 'ip:1' })).status).toBe(429);
    expect((await app.call(lib, {}, undefined, { surface: 'rest', key: 'ip:2' })).status).not.toBe(429);
    expect((await app.call(lib, {}, undefined, { surface: 'mcp', key: 'mcp' })).status).not.toBe(429);
    expect((await app.call(lib, {}, undefined, { surface: 'mcp', key: 'mcp' })).status).toBe(429);
    expect((await app.call(calc, input, undefined, { surface: 'mcp', key: 'mcp' })).status).not.toBe(429);
  });

  test('fails closed: when the limiter cannot be reached the endpoint answers 503 and does nothing', async () => {
    app = makeTestApp({ env: { CFP_RATE_LIMITS: 'personal:100/60' } });
    const { token } = app.addUser();
    // The buckets' file is not a database: nothing can be read or written there.
    writeFileSync(join(app.dir, LIMITS_FILE), 'this is not a database, it is a text file of more than a hundred bytes: SQLite reads its header and refuses it');
    const res = await app.call(tool('get_profile'), {}, token);
    expect(res).toMatchObject({ status: 503, body: { error: Messages.limiterUnavailable } });
  });

  test("buckets live in their own file (0600) beside the store, which stays synchronous=FULL; a take commits there", async () => {
    app = makeTestApp({ env: { CFP_RATE_LIMITS: 'personal:3/60' } });
    const { token } = app.addUser();
    const level = () => app.deps.store.sqlite.pragma('synchronous', { simple: true });
    expect(level()).toBe(2); // FULL
    expect((await app.call(tool('get_profile'), {}, token)).status).toBe(200);
    for (let i = 0; i < 3; i += 1) await app.call(tool('get_profile'), {}, token);
    expect(level()).toBe(2);
    const file = join(app.dir, LIMITS_FILE);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    const other = new Database(file, { readonly: true });
    const row = other.prepare('SELECT tokens FROM rate_buckets').get() as { tokens: number };
    other.close();
    expect(row.tokens).toBeLessThan(1); // the takes were committed, seen by another connection
  });

  test('CFP_RATE_LIMITS=off disables every bucket', async () => {
    app = makeTestApp({ env: { CFP_RATE_LIMITS: 'off' } });
    expect(app.deps.limiter.enabled).toBe(false);
    expect(() => app.deps.limiter.take('personal', 'x')).not.toThrow();
  });

  test('many processes taking from one bucket at once never exceed it', async () => {
    app = makeTestApp();
    const file = storeFile(app.dir);
    // 4 processes × 30 attempts against a bucket of 50 (no refill within the frozen clock): exactly 50 succeed.
    const children = Array.from({ length: 4 }, () =>
      run(process.execPath, ['--import', 'tsx', join(__dirname, 'takeMany.ts'), file, '30', 'attach:50/3600'], { cwd: join(__dirname, '../..') }),
    );
    const results = (await Promise.all(children)).map((r) => JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { ok: number; refused: number });
    expect(results.reduce((s, r) => s + r.ok, 0)).toBe(50);
    expect(results.reduce((s, r) => s + r.refused, 0)).toBe(70);
  }, 60_000);

  test('an unknown CFP_RATE_LIMITS entry is refused at start', () => {
    expect(() => makeTestApp({ env: { CFP_RATE_LIMITS: 'nonsense:1/1' } })).toThrow(/CFP_RATE_LIMITS/);
    app = makeTestApp();
    expect(ApiError).toBeDefined();
  });
});
