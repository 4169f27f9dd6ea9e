import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { revokeToken } from '../../src/auth/tokens.js';
import { Messages } from '../../src/errors.js';
import { tools } from '../../tools/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { addGames, gameRow } from '../helpers/games.js';
import { mcpClient, rest, startServer } from '../helpers/server.js';
import type { Listening } from '../../src/http/listen.js';

let app: TestApp;
let server: Listening;
let token: string;
let otherToken: string;
let client: Client;
let gameId: string;
let foreignId: string;

beforeAll(async () => {
  app = makeTestApp();
  const owner = app.addUser('Owner', 'owner@example.test');
  const other = app.addUser('Other', 'other@example.test');
  token = owner.token;
  otherToken = other.token;
  addGames(app.deps.store, app.deps.clock, [
    gameRow(owner.user.id, { sourceId: 'a', opponent: 'Alpha', sanMoves: 'e4 e5 Nf3', movesSource: 'pgn', movesCount: 2, platformAccuracy: 77.5 }),
    gameRow(owner.user.id, { sourceId: 'b', provider: 'fed', timeClass: 'standard', opponent: 'Beta', playedAt: '2025-05-05T00:00:00.000Z' }),
    gameRow(other.user.id, { sourceId: 'c', opponent: 'Gamma' }),
  ]);
  gameId = (app.deps.store.sqlite.prepare("SELECT id FROM games WHERE source_id='a'").get() as { id: string }).id;
  foreignId = (app.deps.store.sqlite.prepare("SELECT id FROM games WHERE source_id='c'").get() as { id: string }).id;
  server = await startServer(app);
  client = await mcpClient(server.url, token);
});
afterAll(async () => {
  await client.close();
  await server.close();
  await app.close();
});

describe('REST and MCP carry the same JSON', () => {
  test.each([
    ['get_profile', '/api/v1/me', {}],
    ['list_games', '/api/v1/me/games?provider=siteB,fed&sort=accuracy-desc', { provider: 'siteB,fed', sort: 'accuracy-desc' }],
    ['list_games', '/api/v1/me/games?movesMin=1&page=1', { movesMin: 1, page: 1 }],
    ['get_game', '/api/v1/me/games/{id}', { id: '{id}' }],
  ])('%s %s', async (name, path, args) => {
    const realArgs = JSON.parse(JSON.stringify(args).replace('{id}', gameId));
    const r = await rest(server.url, path.replace('{id}', gameId), { token });
    expect(r.status).toBe(200);
    const m = await client.callTool({ name, arguments: realArgs });
    expect(m.isError).toBeFalsy();
    expect(m.structuredContent).toEqual(r.body);
    expect(JSON.parse((m.content as Array<{ text: string }>)[0].text)).toEqual(r.body);
  });

  test('tools/list has the 29 tools in registry order with schemas and all four annotations', async () => {
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    for (const t of listed) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(Object.keys(t.annotations ?? {})).toEqual(expect.arrayContaining(['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']));
    }
  });

  test('a tool not built yet answers 501 {error} over REST and an isError result over MCP', async () => {
    const r = await rest(server.url, '/api/v1/me/puzzles', { token });
    if (r.status === 501) {
      const m = await client.callTool({ name: 'get_puzzle_stats', arguments: {} });
      expect(m.isError).toBe(true);
      expect(JSON.parse((m.content as Array<{ text: string }>)[0].text)).toEqual(r.body);
    } else {
      expect(r.status).toBe(200);
    }
  });
});

describe('authentication and ownership (spec 5)', () => {
  test('missing, malformed, unknown and revoked tokens get the same 401', async () => {
    const bodies = [];
    for (const t of [undefined, 'nonsense', `cfp_${'A'.repeat(43)}`]) {
      const r = await rest(server.url, '/api/v1/me', { token: t });
      expect(r.status).toBe(401);
      bodies.push(r.body);
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0]).toEqual({ error: Messages.unauthorized });
  });

  test('revocation takes effect on the next request, over REST and MCP', async () => {
    const extra = app.addUser('Third', 'third@example.test');
    expect((await rest(server.url, '/api/v1/me', { token: extra.token })).status).toBe(200);
    const id = (app.deps.store.sqlite.prepare('SELECT id FROM tokens WHERE user_id = ?').get(extra.user.id) as { id: string }).id;
    expect(revokeToken(app.deps.store, app.deps.clock, extra.user.id, id)).toBe(true);
    expect((await rest(server.url, '/api/v1/me', { token: extra.token })).status).toBe(401);
    const c = await mcpClient(server.url, extra.token);
    const m = await c.callTool({ name: 'get_profile', arguments: {} });
    expect(m.isError).toBe(true);
    expect(JSON.parse((m.content as Array<{ text: string }>)[0].text)).toEqual({ error: Messages.unauthorized });
    await c.close();
  });

  test("only fingerprints are stored: no token text in the store", () => {
    const rows = app.deps.store.sqlite.prepare('SELECT fingerprint FROM tokens').all() as Array<{ fingerprint: string }>;
    for (const r of rows) expect(r.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(app.deps.store.sqlite.prepare('SELECT * FROM tokens').all())).not.toContain(token);
    expect(token).toMatch(/^cfp_[A-Za-z0-9_-]{43}$/);
  });

  test("another user's game answers exactly like an unknown id", async () => {
    const foreign = await rest(server.url, `/api/v1/me/games/${foreignId}`, { token });
    const unknown = await rest(server.url, '/api/v1/me/games/no-such-id', { token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect((await rest(server.url, `/api/v1/me/games/${foreignId}`, { token: otherToken })).status).toBe(200);
  });

  test('public tools need no token over MCP', async () => {
    const anon = await mcpClient(server.url);
    const m = await anon.callTool({ name: 'list_library_games', arguments: {} });
    const body = JSON.parse((m.content as Array<{ text: string }>)[0].text);
    expect(body).not.toEqual({ error: Messages.unauthorized });
    const p = await anon.callTool({ name: 'get_profile', arguments: {} });
    expect(p.isError).toBe(true);
    await anon.close();
  });
});

describe('REST request rules', () => {
  test('400 names the bad query field', async () => {
    const r = await rest(server.url, '/api/v1/me/games?movesMin=-1', { token });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^movesMin: /);
    expect((await rest(server.url, '/api/v1/me/games?provider=siteC', { token })).body.error).toMatch(/^provider: /);
    expect((await rest(server.url, '/api/v1/me/games?from=2025-02-30', { token })).body.error).toMatch(/^from: /);
    expect((await rest(server.url, '/api/v1/me/games?page=1&page=2', { token })).body.error).toMatch(/^page: /);
  });

  test('415 for a write whose body is not JSON; 413 on actual and on declared oversize', async () => {
    const path = `/api/v1/me/games/${gameId}`;
    const r415 = await rest(server.url, path, { method: 'POST', token, headers: { 'content-type': 'text/plain' }, body: 'pgn' });
    expect(r415).toMatchObject({ status: 415, body: { error: expect.any(String) } });
    const big = JSON.stringify({ pgn: 'x'.repeat(300_000) });
    const r413 = await rest(server.url, path, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: big });
    expect(r413).toMatchObject({ status: 413, body: { error: expect.any(String) } });
    // Declared: the Content-Length alone is over the limit; the server refuses before reading.
    const declared = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const u = new URL(server.url + path);
        const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(10_000_000), authorization: `Bearer ${token}` } }, (res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
        });
        req.on('error', reject);
        req.write('{"pgn":"');
      });
    });
    expect(declared).toBe(413);
  });

  test('malformed JSON is a 400 {error}; unknown routes a 404 {error}', async () => {
    const r = await rest(server.url, `/api/v1/me/games/${gameId}`, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: '{"pgn": ' });
    expect(r).toMatchObject({ status: 400, body: { error: 'the body is not valid JSON' } });
    expect(await rest(server.url, '/api/v1/nothing')).toMatchObject({ status: 404, body: { error: expect.any(String) } });
  });
});

describe('the MCP endpoint', () => {
  test('GET and DELETE answer 405 (stateless), not 404', async () => {
    expect((await rest(server.url, '/api/mcp')).status).toBe(405);
    expect((await rest(server.url, '/api/mcp', { method: 'DELETE' })).status).toBe(405);
  });

  test('a foreign Host or Origin is refused (DNS-rebinding protection)', async () => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' };
    const { request } = await import('node:http');
    const u = new URL(server.url);
    const status = await new Promise<number>((resolve) => {
      const req = request({ host: u.hostname, port: u.port, path: '/api/mcp', method: 'POST', headers: { ...init.headers, host: `attacker.example:${u.port}` } }, (res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
      });
      req.end(init.body);
    });
    expect(status).toBe(403);
    const origin = await rest(server.url, '/api/mcp', { ...init, headers: { ...init.headers, origin: 'https://attacker.example' } });
    expect(origin.status).toBe(403);
    const local = await rest(server.url, '/api/mcp', { ...init, headers: { ...init.headers, origin: server.url } });
    expect(local.status).toBe(200);
  });
});

describe('discovery documents', () => {
  test('api-catalog: RFC 9727 linkset, and HEAD answers with the Link header', async () => {
    const head = await fetch(`${server.url}/.well-known/api-catalog`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('link')).toBe(`<${server.url}/.well-known/api-catalog>; rel="api-catalog"`);
    const r = await rest(server.url, '/.well-known/api-catalog');
    expect(r.headers.get('content-type')).toMatch(/^application\/linkset\+json/);
    expect(r.body.linkset[0].anchor).toBe(`${server.url}/api/v1`);
    expect(r.body.linkset[0]['service-desc'][0].href).toBe(`${server.url}/openapi.json`);
    expect(r.body.linkset[0]['service-doc'][0].href).toBe(`${server.url}/llms.txt`);
  });

  test('server card, agent skills, llms.txt and auth.md', async () => {
    const card = (await rest(server.url, '/.well-known/mcp.json')).body;
    expect(card.transport).toMatchObject({ type: 'streamable-http', endpoint: `${server.url}/api/mcp` });
    expect(card.tools).toHaveLength(29);
    const skills = (await rest(server.url, '/.well-known/agent-skills/index.json')).body;
    const skillUrl = new URL(skills.skills[0].url);
    const md = await rest(server.url, skillUrl.pathname);
    const { createHash } = await import('node:crypto');
    expect(skills.skills[0].digest).toBe(`sha256:${createHash('sha256').update(md.body).digest('hex')}`);
    const llms = (await rest(server.url, '/llms.txt')).body as string;
    for (const t of tools) expect(llms).toContain(`[${t.name}]`);
    // The stdio start as this installation runs it (absolute node and script), never the unowned npm name.
    expect(llms).toContain(`${process.execPath} ${join(import.meta.dirname, '..', '..', 'bin', 'chess-footprint.js')} mcp --data-dir `);
    expect(llms).not.toMatch(/command `npx chess-footprint/);
    expect((await rest(server.url, '/auth.md')).body).toContain('token revoke');
  });

  test('documents carry a strong ETag: the same bytes each time, 304 for a client that holds them', async () => {
    for (const path of ['/openapi.json', '/llms.txt', '/.well-known/mcp.json', '/.well-known/api-catalog']) {
      const a = await fetch(server.url + path);
      const b = await fetch(server.url + path);
      const etag = a.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(b.headers.get('etag')).toBe(etag);
      expect(Buffer.from(await b.arrayBuffer()).equals(Buffer.from(await a.arrayBuffer()))).toBe(true);
      const held = await fetch(server.url + path, { headers: { 'if-none-match': etag! } });
      expect(held.status).toBe(304);
      expect(await held.text()).toBe('');
      const other = await fetch(server.url + path, { headers: { 'if-none-match': '"something-else"' } });
      expect(other.status).toBe(200);
    }
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string };
    expect(spec.openapi).toMatch(/^3\.1/);
  });
});
