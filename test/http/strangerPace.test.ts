import { Agent, request } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { issueWorkerKey } from '../../src/auth/workerKeys.js';
import { listen, type Listening } from '../../src/http/listen.js';
import { addressGroup, type StrangerPaceOptions } from '../../src/http/strangerPace.js';
import { tools } from '../../tools/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

// Issue 44 item 2: strangers refused faster than an address's bucket allows wait for their refusal, unread,
// while owners' and workers' requests from the same address are answered at once (src/http/strangerPace.ts).
// Nothing here times anything: each case shows which answer comes first, or that one has not come at all.

let app: TestApp;
let server: Listening;
let token: string;
let workerKey: string;

async function start(pace: Partial<StrangerPaceOptions>): Promise<void> {
  app = makeTestApp();
  const owner = app.addUser('Pace Owner');
  token = owner.token;
  workerKey = issueWorkerKey(app.deps.store, app.deps.clock, owner.user.id, 'box').key;
  server = await listen(tools, app.deps, { host: '127.0.0.1', port: 0, strangerPace: pace });
}
afterEach(async () => {
  await server?.close();
  await app?.close();
});

interface Answer {
  status: number;
  connection: string | undefined;
  body: unknown;
}

/**
 * One request on a connection of its own, which the client would keep (so that `connection` is the server's
 * choice); `from`: the loopback source address (any of 127/8 on Linux).
 */
function send(method: string, path: string, opts: { auth?: string; body?: string; from?: string } = {}): Promise<Answer> {
  const u = new URL(server.url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.auth) headers.authorization = opts.auth;
  if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
  const agent = new Agent({ keepAlive: true });
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers, agent, localAddress: opts.from }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(opts.body);
  }).finally(() => agent.destroy());
}

/** Settles to 'pending' unless the promise has settled by the time `after` has. */
async function stateOf(p: Promise<unknown>, after: Promise<unknown>): Promise<'answered' | 'failed' | 'pending'> {
  let state: 'answered' | 'failed' | 'pending' = 'pending';
  p.then(() => (state = state === 'pending' ? 'answered' : state), () => (state = state === 'pending' ? 'failed' : state));
  await after;
  await new Promise((r) => setImmediate(r));
  return state;
}

const NO_TOKEN = 'missing, invalid or revoked token: send Authorization: Bearer cfp_… (see /auth.md)';
const WORKER_KEY_REQUIRED = 'a worker key is required (Authorization: Bearer KEY; `chess-footprint worker-key create --name NAME` makes one)';
const HOUR = 3_600_000;

describe('an address refused past its burst waits; others do not', () => {
  test('the burst is answered at once; the next stranger is held while the owner and the worker from the same address are answered', async () => {
    await start({ burst: 3, refillPerSecond: 0, delayMs: HOUR });
    for (let i = 0; i < 3; i++) expect(await send('GET', '/api/v1/me/games')).toMatchObject({ status: 401, body: { error: NO_TOKEN } });
    const held = send('POST', '/fishnet/analysis/job-1', { body: '[[[1]]]' });
    const owner = send('GET', '/api/v1/me/games', { auth: `Bearer ${token}` });
    expect(await stateOf(held, owner)).toBe('pending');
    expect((await owner).status).toBe(200);
    const worker = send('GET', '/fishnet/key', { auth: `Bearer ${workerKey}` });
    expect(await stateOf(held, worker)).toBe('pending');
    expect((await worker).status).toBe(204); // fishnet.ts: a live key's check
    // Another address has a bucket of its own.
    const other = send('GET', '/api/v1/me/games', { from: '127.0.0.2' });
    expect(await stateOf(held, other)).toBe('pending');
    expect(await other).toMatchObject({ status: 401, connection: 'keep-alive' });
    // Closing the server drops the held stranger unanswered.
    await server.close();
    await expect(held).rejects.toThrow();
  });

  test('a held refusal is the route\'s own answer, sent later, with the connection closed', async () => {
    await start({ burst: 1, refillPerSecond: 0, delayMs: 150 });
    expect(await send('GET', '/api/v1/me/games')).toMatchObject({ status: 401, connection: 'keep-alive' });
    const fishnet = send('POST', '/fishnet/acquire', { body: '{}' });
    const rest = send('GET', '/api/v1/me/games');
    expect(await fishnet).toEqual({ status: 401, connection: 'close', body: { error: WORKER_KEY_REQUIRED } });
    expect(await rest).toEqual({ status: 401, connection: 'close', body: { error: NO_TOKEN } });
  });

  test('the bucket refills at its rate', async () => {
    // A refusal sent at once keeps a body-less request's connection; a held one closes it: which is which, untimed.
    let now = 0;
    await start({ burst: 1, refillPerSecond: 1, delayMs: 50, now: () => now });
    expect((await send('GET', '/api/v1/me/games')).connection).toBe('keep-alive'); // the burst: 1 → 0
    expect((await send('GET', '/api/v1/me/games')).connection).toBe('close'); // empty, held
    now = 999;
    expect((await send('GET', '/api/v1/me/games')).connection).toBe('close'); // 0.999 gained back: still held
    now = 2_000;
    expect((await send('GET', '/api/v1/me/games')).connection).toBe('keep-alive'); // 2 gained back, capped at 1
    expect((await send('GET', '/api/v1/me/games')).connection).toBe('close');
  });

  test('past the held sockets\' bound a paced stranger is dropped unanswered', async () => {
    await start({ burst: 0, refillPerSecond: 0, delayMs: HOUR, maxHeld: 1 });
    const first = send('GET', '/api/v1/me/games');
    const second = send('GET', '/api/v1/me/games');
    await expect(second).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(await stateOf(first, Promise.resolve())).toBe('pending');
  });
});

describe('the unit an address is counted in', () => {
  test('IPv4 whole, IPv4-mapped as IPv4, IPv6 by its /64', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0DB8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
  });
});
