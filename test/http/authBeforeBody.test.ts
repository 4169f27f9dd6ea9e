import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { issueWorkerKey } from '../../src/auth/workerKeys.js';
import { JSON_DEPTH_LIMIT, nestsDeeperThan, tooDeepMessage } from '../../src/facade/http.js';
import type { Listening } from '../../src/http/listen.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startServer } from '../helpers/server.js';

// Issue 44 item 2: a request whose sender is not known is refused before its body is read, and JSON
// nesting is bounded. The body here never finishes: a server that read it first would never answer.
let app: TestApp;
let server: Listening;
let token: string;
let workerKey: string;

beforeAll(async () => {
  app = makeTestApp();
  const owner = app.addUser('Body Owner');
  token = owner.token;
  workerKey = issueWorkerKey(app.deps.store, app.deps.clock, owner.user.id, 'box').key;
  server = await startServer(app);
});
afterAll(async () => {
  await server?.close();
  await app?.close();
});
afterEach(() => vi.restoreAllMocks());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends the head and `sent` of a body that declares `declared` bytes (or is chunked when `declared` is
 * undefined) and never sends the rest; resolves with the answer, or 'no answer' after `waitMs`.
 */
function unfinished(method: string, path: string, headers: Record<string, string>, sent: string, declared?: number, waitMs = 4000): Promise<Answer | 'no answer'> {
  const u = new URL(server.url);
  return new Promise((resolve) => {
    const all = { 'content-type': 'application/json', ...headers, ...(declared === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(declared) }) };
    const req = request({ host: u.hostname, port: u.port, method, path, headers: all });
    const timer = setTimeout(() => {
      req.destroy();
      resolve('no answer');
    }, waitMs);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', () => undefined); // the server closing the socket under an unfinished body is expected
    req.write(sent);
  });
}

/** A whole request. */
function whole(method: string, path: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `depth` nested arrays around a marker string: `[[[…"marker"…]]]`. */
const nested = (depth: number, marker = 'deep-marker') => `${'['.repeat(depth)}"${marker}"${']'.repeat(depth)}`;

// Every route that takes a body, with its credential.
const routes: Array<{ name: string; method: string; path: string; auth: string; bad: string; unknown: string }> = [
  { name: 'REST facade (a personal write)', method: 'POST', path: '/api/v1/me/coaching/entries', auth: 'authorization', bad: 'Bearer cfp_' + 'x'.repeat(43), unknown: '' },
  { name: 'preparation API (declare a repertoire)', method: 'PUT', path: '/api/v1/prep/repertoire/white', auth: 'authorization', bad: 'Bearer cfp_' + 'y'.repeat(43), unknown: '' },
  { name: 'settings API (a connection)', method: 'PUT', path: '/api/v1/settings/connections/lichess', auth: 'authorization', bad: 'Bearer cfp_' + 'z'.repeat(43), unknown: '' },
  { name: 'fishnet submission', method: 'POST', path: '/fishnet/analysis/some-job', auth: 'authorization', bad: 'Bearer cfpw_' + 'q'.repeat(43), unknown: '' },
  { name: 'fishnet acquire', method: 'POST', path: '/fishnet/acquire', auth: 'authorization', bad: 'Bearer not-a-key', unknown: '' },
];

describe('a request from nobody known is refused before its body is read', () => {
  for (const r of routes) {
    test(`${r.name}: no credential, a body that never finishes → 401 at once, the socket closed`, async () => {
      const parse = vi.spyOn(JSON, 'parse');
      for (const declared of [1024 * 1024 - 1, undefined]) {
        const answer = await unfinished(r.method, r.path, {}, nested(5000).slice(0, 4096), declared);
        expect(answer, `${r.name} ${declared ?? 'chunked'}`).not.toBe('no answer');
        const a = answer as Answer;
        expect(a.status).toBe(401);
        expect(JSON.parse(a.body)).toHaveProperty('error');
        expect(a.headers.connection).toBe('close');
      }
      // A wrong credential is refused the same way.
      const wrong = (await unfinished(r.method, r.path, { authorization: r.bad }, '{"a":', 200_000)) as Answer;
      expect(wrong).not.toBe('no answer');
      expect([401, 403]).toContain(wrong.status);
      // The JSON parser never saw any of those bodies.
      expect(parse.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('[[[[')).length).toBe(0);
    });

    test(`${r.name}: no credential, a whole deeply nested body → 401, never parsed`, async () => {
      const parse = vi.spyOn(JSON, 'parse');
      const a = await whole(r.method, r.path, {}, nested(20_000));
      expect(a.status).toBe(401);
      expect(parse.mock.calls.some(([text]) => typeof text === 'string' && text.includes('deep-marker'))).toBe(false);
    });
  }

  test('MCP: a message without a token may not carry more than the anonymous limit; it is refused unread', async () => {
    // 200,000 bytes: under the owner's limit (256 KB), over the anonymous one.
    const answer = (await unfinished('POST', '/api/mcp', { accept: 'application/json, text/event-stream' }, nested(5000).slice(0, 4096), 200_000)) as Answer;
    expect(answer).not.toBe('no answer');
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer');
    // A revoked or unknown token is no owner either.
    const wrong = (await unfinished('POST', '/api/mcp', { accept: 'application/json, text/event-stream', authorization: 'Bearer cfp_' + 'w'.repeat(43) }, '[', 200_000)) as Answer;
    expect(wrong.status).toBe(401);
    // With the owner's token the same declared size is read (and this one never finishes: no answer yet).
    expect(await unfinished('POST', '/api/mcp', { accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` }, '[', 200_000, 500)).toBe('no answer');
  });

  test('MCP: a chunked message without a token is refused at the anonymous limit, not read to its end', async () => {
    // 32 KiB sent of a body that never ends: body-parser, past its limit, would read on to the end before
    // reporting the error (its read.js dumps the request), so the refusal never came.
    const answer = await unfinished('POST', '/api/mcp', { accept: 'application/json, text/event-stream' }, `{"pad":"${'p'.repeat(32 * 1024)}`);
    expect(answer).not.toBe('no answer');
    expect((answer as Answer).status).toBe(401);
    expect((answer as Answer).headers.connection).toBe('close');
    expect(JSON.parse((answer as Answer).body).error).toContain('at most 16384 bytes');
  });

  test('the owner\'s request is still read and answered (the refusal is for strangers only)', async () => {
    const a = await whole('POST', '/api/v1/me/coaching/entries', { authorization: `Bearer ${token}` }, JSON.stringify({ kind: 'note', text: 'x' }));
    expect(a.status).not.toBe(401);
    expect(a.status).toBeLessThan(500);
  });
});

describe('JSON nesting is bounded', () => {
  test('the scan counts brackets outside strings only, and stops past the limit', () => {
    expect(nestsDeeperThan(Buffer.from(nested(JSON_DEPTH_LIMIT)))).toBe(false);
    expect(nestsDeeperThan(Buffer.from(nested(JSON_DEPTH_LIMIT + 1)))).toBe(true);
    // Brackets inside strings, and escaped quotes inside strings, are text.
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ pgn: '['.repeat(1000), q: 'a\\"[[[[' + '{'.repeat(500) })))).toBe(false);
    expect(nestsDeeperThan(Buffer.from(`{"a":${'{"b":'.repeat(JSON_DEPTH_LIMIT)}1${'}'.repeat(JSON_DEPTH_LIMIT)}}`))).toBe(true);
  });

  const deep = nested(JSON_DEPTH_LIMIT + 1);
  const cases: Array<[string, string, string, Record<string, string>]> = [
    ['REST facade', 'POST', '/api/v1/me/coaching/entries', {}],
    ['preparation API', 'PUT', '/api/v1/prep/repertoire/white', {}],
    ['MCP (owner)', 'POST', '/api/mcp', { accept: 'application/json, text/event-stream' }],
  ];
  for (const [name, method, path, extra] of cases) {
    test(`${name}: an owner's body nested past ${JSON_DEPTH_LIMIT} levels is a 400 {error} naming the bound, and never parsed`, async () => {
      const parse = vi.spyOn(JSON, 'parse');
      const a = await whole(method, path, { authorization: `Bearer ${token}`, ...extra }, `{"x":${deep}}`);
      expect(a.status).toBe(400);
      expect(JSON.parse(a.body)).toEqual({ error: tooDeepMessage });
      expect(parse.mock.calls.some(([text]) => typeof text === 'string' && text.includes('deep-marker'))).toBe(false);
    });
  }

  test('MCP without a token: the same bound', async () => {
    const a = await whole('POST', '/api/mcp', { accept: 'application/json, text/event-stream' }, `{"x":${deep}}`);
    expect(a.status).toBe(400);
    expect(JSON.parse(a.body)).toEqual({ error: tooDeepMessage });
  });

  test('fishnet: a worker\'s submission for a job its key does not hold → 404 before its body is read', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    const answer = await unfinished('POST', '/fishnet/analysis/no-such-job', { authorization: `Bearer ${workerKey}` }, nested(5000).slice(0, 4096), 200_000);
    expect(answer).not.toBe('no answer');
    const a = answer as Answer;
    expect(a.status).toBe(404);
    expect(JSON.parse(a.body).error).toMatch(/^this key holds no job no-such-job/);
    expect(a.headers.connection).toBe('close');
    expect(parse.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('[[[[')).length).toBe(0);
  });

  test('fishnet: a worker\'s acquire nested too deep is a 400; its submission is refused as unreadable (nothing held)', async () => {
    const acquire = await whole('POST', '/fishnet/acquire', { authorization: `Bearer ${workerKey}` }, `{"fishnet":${deep}}`);
    expect(acquire.status).toBe(400);
    expect(JSON.parse(acquire.body)).toEqual({ error: tooDeepMessage });
    const submit = await whole('POST', '/fishnet/analysis/no-such-job', { authorization: `Bearer ${workerKey}` }, `{"analysis":${deep}}`);
    expect(submit.status).toBeGreaterThanOrEqual(400);
    expect(submit.status).toBeLessThan(500);
  });
});
