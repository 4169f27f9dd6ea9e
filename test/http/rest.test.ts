import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Listening } from '../../src/http/listen.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { rest, startServer } from '../helpers/server.js';

// The REST facade answers on node:http ahead of the express app (src/http/rest.ts); these pin the
// express semantics it keeps, each against what express 5 (router 2, path-to-regexp 8) does.
let app: TestApp;
let server: Listening;
let token: string;

beforeAll(async () => {
  app = makeTestApp();
  token = app.addUser('Dispatch Owner').token;
  server = await startServer(app);
});
afterAll(async () => {
  await server?.close();
  await app?.close();
});

/** A request through node:http, whose request target is sent exactly as given. */
function raw(method: string, target: string, headers: Record<string, string> = {}) {
  const u = new URL(server.url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    request({ host: u.hostname, port: u.port, method, path: target, headers: { authorization: `Bearer ${token}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the REST facade matches paths as express routes do', () => {
  test('case is ignored and one trailing slash is allowed', async () => {
    const plain = await raw('GET', '/api/v1/me');
    expect(plain.status).toBe(200);
    for (const target of ['/API/V1/ME', '/api/v1/me/', '/Api/V1/Me/']) {
      const r = await raw('GET', target);
      expect(r.status, target).toBe(200);
      expect(JSON.parse(r.body), target).toEqual(JSON.parse(plain.body));
    }
    expect((await raw('GET', '/api/v1/me//')).status).toBe(404);
  });

  test('a request target in absolute form (RFC 9112 section 3.2.2) is the same request', async () => {
    const r = await raw('GET', `${server.url}/api/v1/me/games?page=1`);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).page).toBe(1);
  });

  test('HEAD answers a GET route with its headers and no body', async () => {
    const get = await raw('GET', '/api/v1/me/games');
    const head = await raw('HEAD', '/api/v1/me/games');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.headers['cache-control']).toBe('no-store');
  });

  test('OPTIONS lists the methods of a tool path; an unknown path is still a 404', async () => {
    const game = await raw('OPTIONS', '/api/v1/me/games/some-id');
    expect(game.status).toBe(204);
    // get_game (GET, so HEAD too) and attach_pgn (POST) share /api/v1/me/games/{id}.
    expect(game.headers.allow).toBe('GET, HEAD, POST');
    expect((await raw('OPTIONS', '/api/v1/me/coaching/positions/p1')).headers.allow).toBe('DELETE');
    expect((await raw('OPTIONS', '/api/v1/nothing')).status).toBe(404);
  });

  test('path parameters are percent-decoded; one that is not valid UTF-8 is a 400, not a 404 or a 500', async () => {
    const unknown = await raw('GET', '/api/v1/me/games/no-such-game');
    const encoded = await raw('GET', '/api/v1/me/games/no%2Dsuch%2Dgame');
    expect(encoded.status).toBe(404);
    expect(JSON.parse(encoded.body)).toEqual(JSON.parse(unknown.body));
    const bad = await raw('GET', '/api/v1/me/games/%E0%A4%A');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ error: 'a path segment is not valid percent-encoded UTF-8' });
  });

  test('a method a tool path does not take, and an unknown path under it, are 404 {error} and no-store', async () => {
    for (const [method, target] of [
      ['DELETE', '/api/v1/me/games'],
      ['PUT', '/api/v1/me'],
      ['GET', '/api/v1/me/nothing-here'],
    ] as const) {
      const r = await raw(method, target);
      expect(r.status, target).toBe(404);
      expect(JSON.parse(r.body).error, target).toMatch(/^no endpoint /);
      expect(r.headers['cache-control'], target).toBe('no-store');
    }
  });

  test('a repeated query field is refused by name (querystring gives it as a list)', async () => {
    const r = await rest(server.url, '/api/v1/me/games?page=1&page=2', { token });
    expect(r).toMatchObject({ status: 400, body: { error: 'page: give it once (comma-separate list values)' } });
  });

  test('the express app still answers what is not a tool route: settings, documents, MCP', async () => {
    expect((await raw('GET', '/api/v1/settings/tokens')).status).toBe(200);
    expect((await raw('GET', '/openapi.json')).status).toBe(200);
    expect((await raw('GET', '/api/mcp')).status).toBe(405);
  });
});
