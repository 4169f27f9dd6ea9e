import { request } from 'node:http';
import { join } from 'node:path';
import { Database } from '../../src/store/sqlite.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Messages } from '../../src/errors.js';
import type { Listening } from '../../src/http/listen.js';
import { JSON_BODY_LIMIT_BYTES } from '../../src/facade/http.js';
import { LIMITS_FILE } from '../../src/limits/limiter.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { rest, startServer } from '../helpers/server.js';

let app: TestApp;
let server: Listening;
let token: string;

beforeAll(async () => {
  // Rate limits on: the limiter is what a held lock used to freeze.
  app = makeTestApp({ env: { CFP_RATE_LIMITS: '' } });
  token = app.addUser('Edge Owner').token;
  server = await startServer(app);
});
afterAll(async () => {
  await server?.close();
  await app?.close();
});

/** Sends headers declaring `length` bytes and never a body; resolves with the status if the server answers. */
function declareAndWait(path: string, length: number, headers: Record<string, string> = {}) {
  const u = new URL(server.url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(length), ...headers } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.flushHeaders(); // headers only: the body never comes
  });
}

describe('/api/mcp: an over-large declared Content-Length with no body', () => {
  test('is answered 413 at once, without waiting for a body that never comes', async () => {
    const r = await declareAndWait('/api/mcp', 10_000_000, { accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toEqual({ error: `the declared request body exceeds ${JSON_BODY_LIMIT_BYTES} bytes` });
  });
});

describe('unknown query parameters', () => {
  test('a typo is a 400 naming it and the accepted ones, not a silently wider answer', async () => {
    const r = await rest(server.url, '/api/v1/me/games?provdier=siteA', { token });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^unknown query parameter "provdier"; accepted: .*\bprovider\b/);
    const two = await rest(server.url, '/api/v1/me/games?provdier=siteA&sotr=date-asc&result=win', { token });
    expect(two.body.error).toMatch(/^unknown query parameters "provdier", "sotr"; accepted: /);
    expect((await rest(server.url, '/api/v1/me/games?provider=siteA', { token })).status).toBe(200);
  });

  test('an endpoint with no query parameters says so', async () => {
    const r = await rest(server.url, '/api/v1/me?x=1', { token });
    expect(r).toMatchObject({ status: 400, body: { error: 'unknown query parameter "x"; this endpoint takes no query parameters' } });
  });
});

describe('Cache-Control', () => {
  test('personal answers, their errors and MCP answers are no-store', async () => {
    expect((await rest(server.url, '/api/v1/me', { token })).headers.get('cache-control')).toBe('no-store');
    expect((await rest(server.url, '/api/v1/me')).headers.get('cache-control')).toBe('no-store'); // 401
    const mcp = await rest(server.url, '/api/mcp', { method: 'POST', token, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(mcp.status).toBe(200);
    expect(mcp.headers.get('cache-control')).toBe('no-store');
  });

  test('discovery documents are cacheable for a few minutes and revalidate with their ETag', async () => {
    for (const path of ['/openapi.json', '/llms.txt', '/auth.md', '/.well-known/mcp.json', '/.well-known/api-catalog']) {
      // The same Accept-Encoding as the revalidation below: each encoding has its own ETag (staticDocument.test.ts).
      const r = await fetch(server.url + path, { headers: { 'accept-encoding': 'identity' } });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('cache-control'), path).toBe('public, max-age=300, must-revalidate');
      const etag = r.headers.get('etag');
      expect(etag, path).toBeTruthy();
      const again = await new Promise<number>((resolve, reject) => {
        const u = new URL(server.url + path);
        request({ host: u.hostname, port: u.port, path, headers: { 'if-none-match': etag! } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(again, path).toBe(304);
    }
  });
});

// The buckets live in their own file (src/limits/limiter.ts): a lock on the store no longer reaches them
// (test/http/heldLock.test.ts), a lock on that file is the limiter unreachable.
describe('a write lock held on the limiter’s file by another connection', () => {
  test('limited calls fail closed with 503 while it is held, and /openapi.json answers meanwhile', async () => {
    const other = new Database(join(app.dir, LIMITS_FILE));
    other.prepare('BEGIN IMMEDIATE').run();
    let released = false;
    // The lock is held for 4 s. The old limiter waited busy_timeout (5 s) per call, blocking the event loop:
    // every call below would then have been answered only after the release (and as 200s).
    const release = new Promise<void>((resolve) =>
      setTimeout(() => {
        other.prepare('ROLLBACK').run();
        other.close();
        released = true;
        resolve();
      }, 4000),
    );
    try {
      const answered: Array<{ what: string; status: number; error?: string; whileHeld: boolean }> = [];
      const personal = Array.from({ length: 6 }, () =>
        rest(server.url, '/api/v1/me', { token }).then((r) => answered.push({ what: 'me', status: r.status, error: r.body.error, whileHeld: !released })),
      );
      const openapi = rest(server.url, '/openapi.json').then((r) => answered.push({ what: 'openapi', status: r.status, whileHeld: !released }));
      await Promise.all([...personal, openapi]);
      expect(answered.filter((a) => a.what === 'me')).toEqual(Array(6).fill({ what: 'me', status: 503, error: Messages.limiterUnavailable, whileHeld: true }));
      expect(answered.find((a) => a.what === 'openapi')).toEqual({ what: 'openapi', status: 200, whileHeld: true });
    } finally {
      await release;
    }
    // Released: the same call succeeds.
    expect((await rest(server.url, '/api/v1/me', { token })).status).toBe(200);
  });
});
