import { request } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { issueWorkerKey, revokeWorkerKey } from '../../src/auth/workerKeys.js';
import type { Listening } from '../../src/http/listen.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startServer } from '../helpers/server.js';

// Issue 44 item 2: a stranger on a route express serves (fishnet, the settings and prep API, MCP past its
// anonymous allowance) is refused on node:http in front of express (src/http/strangerGate.ts), with the
// answer the route itself gave: same status, body and headers. Express's entry point is counted from
// before the app is built (express copies `handle` onto each app it creates).
let app: TestApp;
let server: Listening;
let token: string;
let workerKey: string;
let revokedKey: string;
// `handle` is express's (lib/application.js), not in its type declarations.
const application = express.application as unknown as { handle: (...args: unknown[]) => unknown };
const expressHandle = application.handle;
let expressEntered = 0;

beforeAll(async () => {
  application.handle = function counted(this: unknown, ...args: unknown[]) {
    expressEntered += 1;
    return expressHandle.apply(this, args);
  };
  app = makeTestApp();
  const owner = app.addUser('Gate Owner');
  token = owner.token;
  workerKey = issueWorkerKey(app.deps.store, app.deps.clock, owner.user.id, 'box').key;
  revokedKey = issueWorkerKey(app.deps.store, app.deps.clock, owner.user.id, 'old box').key;
  revokeWorkerKey(app.deps.store, app.deps.clock, owner.user.id, 'old box');
  server = await startServer(app);
});
afterAll(async () => {
  await server?.close();
  await app?.close();
  application.handle = expressHandle;
});
beforeEach(() => {
  expressEntered = 0;
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** `fresh`: a connection of its own (node:http's parsers are pooled across connections). */
function send(method: string, path: string, headers: Record<string, string>, body?: string, fresh = false): Promise<Answer> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const all: Record<string, string> = { 'content-type': 'application/json', ...headers };
    if (body !== undefined) all['content-length'] = String(Buffer.byteLength(body));
        const req = request({ host: u.hostname, port: u.port, method, path, headers: all, ...(fresh ? { agent: false } : {}) }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const WORKER_KEY_REQUIRED = 'a worker key is required (Authorization: Bearer KEY; `chess-footprint worker-key create --name NAME` makes one)';
const NO_TOKEN = 'missing, invalid or revoked token: send Authorization: Bearer cfp_… (see /auth.md)';
const randomToken = 'Bearer cfp_' + 'r'.repeat(43);

describe('strangers are refused before express, with the route\'s own answer', () => {
  const cases: Array<{ name: string; method: string; path: string; auth?: () => string; body?: string; status: number; error: string; bearer: boolean; noStore: boolean }> = [
    { name: 'fishnet submission, no key', method: 'POST', path: '/fishnet/analysis/job-1', body: '[[[[1]]]]', status: 401, error: WORKER_KEY_REQUIRED, bearer: false, noStore: true },
    { name: 'fishnet acquire, unknown key', method: 'POST', path: '/fishnet/acquire', auth: () => 'Bearer cfpw_' + 'u'.repeat(43), body: '{}', status: 401, error: WORKER_KEY_REQUIRED, bearer: false, noStore: true },
    { name: 'fishnet status, malformed key', method: 'GET', path: '/fishnet/status', auth: () => 'Bearer nope', status: 401, error: WORKER_KEY_REQUIRED, bearer: false, noStore: true },
    { name: 'fishnet abort, a personal token', method: 'POST', path: '/FISHNET/abort/job-1/', auth: () => `Bearer ${token}`, body: '{}', status: 403, error: 'a personal token opens no /fishnet/ route: create a worker key (`chess-footprint worker-key create --name NAME`)', bearer: false, noStore: true },
    { name: 'fishnet leave (ours), no key', method: 'POST', path: '/fishnet/leave', body: '{}', status: 401, error: WORKER_KEY_REQUIRED, bearer: false, noStore: true },
    { name: 'fishnet key check, a revoked key', method: 'GET', path: '/fishnet/key', auth: () => `Bearer ${revokedKey}`, status: 403, error: 'this worker key was revoked', bearer: false, noStore: true },
    { name: 'prep API, no credential', method: 'PUT', path: '/api/v1/prep/repertoire/white', body: '{"pgn":"1. e4"}', status: 401, error: NO_TOKEN, bearer: true, noStore: false },
    { name: 'prep API, a random token', method: 'PUT', path: '/api/v1/prep/repertoire/white', auth: () => randomToken, body: '{"pgn":"1. e4"}', status: 401, error: NO_TOKEN, bearer: true, noStore: false },
    { name: 'settings API, no credential, no body', method: 'GET', path: '/api/v1/settings/tokens', status: 401, error: NO_TOKEN, bearer: true, noStore: false },
    { name: 'MCP past the anonymous allowance', method: 'POST', path: '/api/mcp', body: `{"jsonrpc":"2.0","id":1,"method":"ping","pad":"${'p'.repeat(20_000)}"}`, status: 401, error: `${NO_TOKEN}; without one a message may carry at most 16384 bytes`, bearer: true, noStore: true },
    { name: 'MCP past the anonymous allowance, a random token', method: 'POST', path: '/api/mcp', auth: () => randomToken, body: `{"pad":"${'p'.repeat(20_000)}"}`, status: 401, error: `${NO_TOKEN}; without one a message may carry at most 16384 bytes`, bearer: true, noStore: true },
    { name: 'REST personal tool, no credential', method: 'POST', path: '/api/v1/me/coaching/entries', body: '{"kind":"note","text":"x"}', status: 401, error: NO_TOKEN, bearer: true, noStore: true },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const a = await send(c.method, c.path, c.auth ? { authorization: c.auth() } : {}, c.body);
      expect(a.status).toBe(c.status);
      expect(a.body).toEqual({ error: c.error });
      expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(a.headers['www-authenticate']).toBe(c.bearer ? 'Bearer' : undefined);
      expect(a.headers['cache-control']).toBe(c.noStore ? 'no-store' : undefined);
      // A request with a body is closed rather than drained; one without keeps its connection.
      expect(a.headers.connection).toBe(c.body === undefined ? 'keep-alive' : 'close');
      expect(expressEntered).toBe(0);
    });
  }
});

describe('what the gate does not settle goes on to its route', () => {
  test('a live worker key reaches fishnet (no work: 204), an unknown /fishnet/ path its 404', async () => {
    const u = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: u.hostname, port: u.port, method: 'POST', path: '/fishnet/acquire', headers: { authorization: `Bearer ${workerKey}`, 'content-type': 'application/json', 'content-length': '2' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(204);
    expect(expressEntered).toBe(1);
    expect((await send('GET', '/fishnet/nope', {})).status).toBe(404);
    expect(expressEntered).toBe(2);
  });

  test('the owner\'s token opens the settings API; a small anonymous MCP message is still read', async () => {
    expect((await send('GET', '/api/v1/settings/tokens', { authorization: `Bearer ${token}` })).status).toBe(200);
    const ping = await send('POST', '/api/mcp', { accept: 'application/json, text/event-stream' }, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: {} });
    expect(expressEntered).toBe(2);
  });
});

test('after strangers whose body bytes node:http did not copy, later connections still read their bodies whole', async () => {
  // A refusal empties the socket parser's body callback (facade/http.ts skipBodyCopies) and gives it back
  // on close; node reuses those parsers for new connections. Each ping's answer carries the id from its body.
  for (let i = 1; i <= 12; i += 1) {
    expect((await send('POST', '/fishnet/analysis/job-1', {}, '['.repeat(30_000), true)).status).toBe(401);
    const ping = await send('POST', '/api/mcp', { accept: 'application/json, text/event-stream' }, JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }), true);
    expect(ping.body).toMatchObject({ jsonrpc: '2.0', id: i, result: {} });
  }
});

/** A body sent chunked (no Content-Length): written, then ended. */
function chunked(path: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const u = new URL(server.url);
  return new Promise((resolve) => {
    const req = request({ host: u.hostname, port: u.port, method: 'POST', path, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', () => undefined); // the server may close the socket under the rest of a refused body
    req.write(body);
    req.end();
  });
}

test('MCP: a chunked message without a token, past the allowance in its first bytes, is refused before express; a small one is read', async () => {
  const a = await chunked('/api/mcp', { accept: 'application/json, text/event-stream' }, `{"pad":"${'p'.repeat(40_000)}"}`);
  expect(a.status).toBe(401);
  expect(a.body).toEqual({ error: `${NO_TOKEN}; without one a message may carry at most 16384 bytes` });
  expect(a.headers.connection).toBe('close');
  expect(expressEntered).toBe(0);
  const ping = await chunked('/api/mcp', { accept: 'application/json, text/event-stream' }, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }));
  expect(ping.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: {} });
  expect(expressEntered).toBe(1);
});
