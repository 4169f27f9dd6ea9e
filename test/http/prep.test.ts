import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { issueSignInCode } from '../../src/auth/sessions.js';
import type { Listening } from '../../src/http/listen.js';
import { scoutRuns } from '../../src/services/prep/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';
import { addGames, gameRow } from '../helpers/games.js';
import { mcpClient, rest, startServer } from '../helpers/server.js';

const FIX = join(import.meta.dirname, '../fixtures/prep');
const served = readFileSync(join(FIX, 'rivalx.ndjson'), 'utf8').split('\n').filter((l) => l.trim());

describe('preparation over REST, MCP resources and the dashboard session', () => {
  let app: TestApp;
  let server: Listening;
  let source: FixtureServer;
  let alice: ReturnType<TestApp['addUser']>;
  let bob: ReturnType<TestApp['addUser']>;
  let aliceMcp: Client;
  let bobMcp: Client;
  const json = (token: string, body: unknown, method = 'POST') => ({ method, token, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    source = await startFixtureServer();
    source.route('prefix:/api/games/user/', (_req, res, url) => {
      const since = Number(url.searchParams.get('since') ?? 0);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const l of served) if ((JSON.parse(l) as { createdAt: number }).createdAt >= since) res.write(l + '\n');
      res.end();
    });
    app = makeTestApp({ env: { CFP_LICHESS_URL: source.url, CFP_CHESSCOM_URL: source.url, CFP_RATE_LIMITS: 'scout:2/3600' } });
    alice = app.addUser('Alice');
    bob = app.addUser('Bob');
    addGames(app.deps.store, app.clock, [gameRow(alice.user.id, { sourceId: 'a1', colour: 'white', result: 'win', sanMoves: 'e4 e5 Nf3 Nc6 Bb5', movesSource: 'pgn' })]);
    server = await startServer(app);
    aliceMcp = await mcpClient(server.url, alice.token);
    bobMcp = await mcpClient(server.url, bob.token);
  });
  afterAll(async () => {
    await Promise.all([aliceMcp?.close(), bobMcp?.close()]);
    await server?.close();
    await source?.close();
    await app?.close();
  });

  test("a scout through REST, read by its owner on REST and MCP; another owner finds it exactly as an unknown player", async () => {
    const started = await rest(server.url, '/api/v1/prep/scouts', json(alice.token, { provider: 'lichess', username: 'RivalX' }));
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ provider: 'siteB', username: 'rivalx', bounds: { maxGames: 500, months: 12 } });
    await scoutRuns(app.deps).settled(alice.user.id, 'siteB', 'rivalx');

    const report = await rest(server.url, '/api/v1/prep/players/siteB/RivalX', { token: alice.token });
    expect(report.status).toBe(200);
    expect(report.body.scout).toMatchObject({ state: 'ok', games: 6 });
    const tree = await rest(server.url, '/api/v1/prep/players/lichess/rivalx/openings/white?moves=e4', { token: alice.token });
    expect(tree.status).toBe(200);
    expect(tree.body.nextMoves.map((m: { san: string; share: number }) => [m.san, m.share])).toEqual([
      ['c5', 66.7],
      ['e5', 33.3],
    ]);
    const viaMcp = await aliceMcp.readResource({ uri: 'chess-footprint://players/siteB/rivalx/openings/white?moves=e4' });
    expect(JSON.parse((viaMcp.contents[0] as { text: string }).text)).toEqual(tree.body);

    // Bob: the same answer as for a player nobody scouted, on every surface.
    const hidden = await rest(server.url, '/api/v1/prep/players/siteB/rivalx', { token: bob.token });
    const unknown = await rest(server.url, '/api/v1/prep/players/siteB/nobody1', { token: bob.token });
    expect(hidden.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(hidden.body.error.replaceAll('rivalx', 'X')).toBe(unknown.body.error.replaceAll('nobody1', 'X'));
    expect((await rest(server.url, '/api/v1/prep/players/siteB/rivalx/openings/white', { token: bob.token })).status).toBe(404);
    expect((await rest(server.url, '/api/v1/prep/scouts', { token: bob.token })).body).toEqual({ scouts: [] });
    await expect(bobMcp.readResource({ uri: 'chess-footprint://players/siteB/rivalx/openings/white' })).rejects.toThrow(/no scout of siteB player rivalx/);
    expect((await rest(server.url, '/api/v1/prep/players/siteB/rivalx', { token: bob.token, method: 'DELETE' })).status).toBe(404);

    // Alice's own views hold only her one game.
    const games = await rest(server.url, '/api/v1/me/games', { token: alice.token });
    expect(games.body.total).toBe(1);
  });

  test('the dashboard session reads the same routes; a cookie from another origin is refused', async () => {
    const signIn = await rest(server.url, '/api/v1/settings/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url },
      body: JSON.stringify({ code: issueSignInCode(app.deps.store, app.deps.clock, bob.user.id) }),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
    expect((await rest(server.url, '/api/v1/prep/scouts', { headers: { Cookie: cookie } })).body).toEqual({ scouts: [] });
    expect((await rest(server.url, '/api/v1/prep/players/siteB/rivalx', { headers: { Cookie: cookie } })).status).toBe(404);
    expect((await rest(server.url, '/api/v1/prep/scouts', { headers: { Cookie: cookie, Origin: 'http://evil.example' } })).status).toBe(403);
    expect((await rest(server.url, '/api/v1/prep/scouts')).status).toBe(401);
  });

  test('only usernames: a URL or a path is a 400, and the source is never asked', async () => {
    const before = source.requests.length;
    for (const username of ['https://evil.example/x', '../../admin', 'a b', 'x']) {
      const res = await rest(server.url, '/api/v1/prep/scouts', json(alice.token, { provider: 'lichess', username }));
      expect(res.status, username).toBe(400);
      expect(res.body.error).toMatch(/username/);
    }
    expect((await rest(server.url, '/api/v1/prep/scouts', json(alice.token, { provider: 'fics', username: 'abc' }))).status).toBe(400);
    // Each field named once before its rule (issue 38: "username: username: …").
    const both = await rest(server.url, '/api/v1/prep/scouts', json(alice.token, { provider: 'fed', username: 'x' }));
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/(^|; )username: 2 to 30 letters, digits, _ or -, starting with a letter or digit$/);
    expect(both.body.error).not.toMatch(/username: username/);
    expect((await rest(server.url, '/api/v1/prep/scouts', json(alice.token, { provider: 'lichess', username: 'abc', url: 'http://x' }))).status).toBe(400);
    expect((await rest(server.url, '/api/v1/prep/players/siteB/rivalx/openings/white?moves=e4&x=1', { token: alice.token })).status).toBe(400);
    await expect(aliceMcp.readResource({ uri: 'chess-footprint://players/siteB/http%3A%2F%2Fevil' })).rejects.toThrow(/username/);
    expect(source.requests.length).toBe(before);
  });

  test('scouting fetches are their own rate-limited family: the third start in the hour is a 429 and asks nothing', async () => {
    // scout:2/3600 — Alice's first scout spent one.
    const second = await rest(server.url, '/api/v1/prep/scouts', json(alice.token, { provider: 'siteB', username: 'OtherOne' }));
    expect(second.status).toBe(202);
    await scoutRuns(app.deps).settled(alice.user.id, 'siteB', 'otherone');
    const before = source.requests.length;
    const third = await rest(server.url, '/api/v1/prep/scouts', json(alice.token, { provider: 'siteB', username: 'ThirdOne' }));
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(source.requests.length).toBe(before);
    expect((await rest(server.url, '/api/v1/prep/players/siteB/thirdone', { token: alice.token })).status).toBe(404);
    // Bob's bucket is his own.
    expect((await rest(server.url, '/api/v1/prep/scouts', json(bob.token, { provider: 'siteB', username: 'RivalX' }))).status).toBe(202);
    await scoutRuns(app.deps).settled(bob.user.id, 'siteB', 'rivalx');
  });

  test('repertoire routes and resources: declared, read, its deviations; another owner sees none', async () => {
    const put = await rest(server.url, '/api/v1/prep/repertoire/white', json(alice.token, { pgn: '1. e4 e5 2. Nf3 Nc6 3. Bb5 *' }, 'PUT'));
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ colour: 'white', source: 'pgn', positions: 6, lines: 1 });
    const bad = await rest(server.url, '/api/v1/prep/repertoire/white', json(alice.token, { pgn: '1. e4 e5 2. Ke3 *' }, 'PUT'));
    expect(bad.status).toBe(400);
    expect((await rest(server.url, '/api/v1/prep/repertoire/white', { token: alice.token })).body.positions).toBe(6);
    const dev = await rest(server.url, '/api/v1/prep/repertoire/white/deviations', { token: alice.token });
    expect(dev.body).toMatchObject({ games: 1, inRepertoire: 1 });
    const viaMcp = await aliceMcp.readResource({ uri: 'chess-footprint://repertoire/white/deviations' });
    expect(JSON.parse((viaMcp.contents[0] as { text: string }).text)).toEqual(dev.body);
    expect((await rest(server.url, '/api/v1/prep/repertoire/white', { token: bob.token })).status).toBe(404);
    await expect(bobMcp.readResource({ uri: 'chess-footprint://repertoire/white' })).rejects.toThrow(`no white repertoire declared; ask the player to declare one on the dashboard's Prep page, ${server.url}/prep (`);
    expect((await rest(server.url, '/api/v1/prep/repertoire/purple', { token: alice.token })).status).toBe(400);
  });

  test('a realistic 500-line repertoire (over 16 KB) saves; a body past the route limit is a 413 naming it (issue 37, item 4)', async () => {
    // 500 named lines of the shipped lichess opening table starting 1. e4, one PGN game each.
    const named = readFileSync(join(import.meta.dirname, '../../data/openings/c.tsv'), 'utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t')[2])
      .filter((pgn) => pgn?.startsWith('1. e4'));
    const pgn = named
      .slice(0, 500)
      .map((line, i) => `[Event "line ${i + 1}"]\n\n${line} *\n`)
      .join('\n');
    expect(Buffer.byteLength(JSON.stringify({ pgn }))).toBeGreaterThan(30 * 1024);
    const put = await rest(server.url, '/api/v1/prep/repertoire/black', json(bob.token, { pgn }, 'PUT'));
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ colour: 'black', source: 'pgn' });
    expect(put.body.pgn).toBe(pgn);
    // The schema's own limit, 500,000 characters, is the one a caller meets: one more is the schema's 400.
    const max = `[Event "x"]\n\n1. e4 e5 {${'a'.repeat(500_000 - 26)}} *`;
    expect(max.length).toBe(500_000);
    expect((await rest(server.url, '/api/v1/prep/repertoire/black', json(bob.token, { pgn: max }, 'PUT'))).status).toBe(200);
    expect((await rest(server.url, '/api/v1/prep/repertoire/black', json(bob.token, { pgn: max + 'a' }, 'PUT'))).status).toBe(400);
    // A body past the route's limit: the 413 names this route's limit, not another router's.
    const huge = JSON.stringify({ pgn: 'a'.repeat(1_100_000) });
    const refused = await rest(server.url, '/api/v1/prep/repertoire/black', { method: 'PUT', token: bob.token, headers: { 'Content-Type': 'application/json' }, body: huge });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toBe(`the request body exceeds ${2 * 500_000 + 64 * 1024} bytes, this route's limit`);
    // The settings routes keep their 16 KB.
    const token = await rest(server.url, '/api/v1/settings/tokens', json(bob.token, { name: 'x'.repeat(20_000) }));
    expect(token.status).toBe(413);
    expect(token.body.error).toBe(`the request body exceeds ${16 * 1024} bytes, this route's limit`);
  });
});

describe('the settings and preparation routes spend the personal bucket (issue 37, item 2)', () => {
  test("the opening tree and the deviations: the fourth read in the window is a 429; another owner's bucket is untouched", async () => {
    const app = makeTestApp({ env: { CFP_RATE_LIMITS: 'personal:3/60' } });
    const server = await startServer(app);
    try {
      const a = app.addUser('A');
      const b = app.addUser('B');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await rest(server.url, '/api/v1/settings/openings/white', { token: a.token })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await rest(server.url, '/api/v1/prep/repertoire/white/deviations', { token: a.token })).status).toBe(429);
      expect((await rest(server.url, '/api/v1/me/games', { token: a.token })).status).toBe(429);
      expect((await rest(server.url, '/api/v1/settings/openings/white', { token: b.token })).status).toBe(200);
    } finally {
      await server.close();
      app.close();
    }
  });
});
