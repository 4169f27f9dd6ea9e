import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { PeerRuns, peersView, setPeerRuns } from '../../../src/services/peers/index.js';
import { EXPLORER_ELSEWHERE } from '../../../src/services/peers/explorerLease.js';
import { connectSource } from '../../../src/services/sync/connections.js';
import { EXPLORER_BODY_MAX_BYTES, EXPLORER_MOVES, OPENING_NAME_MAX } from '../../../src/sources/lichess/explorer.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { countOpenRequests, startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { secondProcess } from '../../helpers/secondProcess.js';
import { addSlavGames, LICHESS, playExplorer, SLAV_EXCHANGE } from './slav.js';

// Issue 44 item 7: every way lichess's opening explorer can fail, played by a local server. A failure is stored
// with its reason and shown by the next read; the next read during the back-off asks nothing and spends nothing;
// the retry after it is not charged to the scout bucket again; nothing of a bad answer is cached.
const moves = (n: number) => Array.from({ length: n }, (_, i) => ({ uci: 'e2e4', san: 'e4', averageRating: 1600, white: i, draws: 0, black: 0 }));
const answer = (patch: object) => JSON.stringify({ ...JSON.parse(LICHESS), ...patch });

describe("lichess's opening explorer failing", () => {
  let app: TestApp;
  let server: FixtureServer;
  let runs: PeerRuns;
  let warn: { mock: { calls: unknown[][] }; mockRestore(): void };

  beforeEach(async () => {
    server = await startFixtureServer();
    playExplorer(server);
    // A short stall bound (CFP_SOURCE_IDLE_TIMEOUT_MS, CFP_SOURCE_CONNECT_TIMEOUT_MS) and no repeats, so each mode fails at once;
    // two scout fetches per hour, so a second charge would show.
    app = makeTestApp({
      env: { CFP_LICHESS_EXPLORER_URL: server.url, CFP_SOURCE_IDLE_TIMEOUT_MS: '1000', CFP_SOURCE_CONNECT_TIMEOUT_MS: '5000', CFP_SOURCE_MAX_RETRIES: '0', CFP_RATE_LIMITS: 'scout:2/3600' },
    });
    runs = new PeerRuns(app.deps, { sleep: async () => undefined });
    setPeerRuns(app.deps, runs);
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    warn.mockRestore();
    runs.stop();
    await server.close();
    await app.close();
  });

  const runKeyOf = (userId: string) => `${userId} black 1600 blitz `;
  const explorerRequests = () => server.requests.filter((r) => r.path.startsWith('/lichess')).length;
  const cachedRows = () => (app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM explorer_answers').get() as { n: number }).n;

  // At the Slav exchange (the third position asked) the explorer misbehaves; elsewhere it answers.
  const atSlav = (url: URL) => url.pathname === '/lichess' && (url.searchParams.get('fen') ?? '').startsWith(SLAV_EXCHANGE);
  const modes: Array<[string, (srv: FixtureServer, other: string) => void, RegExp]> = [
    ['a 500', (srv) => srv.intercept((_q, res, url) => atSlav(url) && (res.writeHead(500).end('oops'), true)), /lichess answered an error: lichess opening explorer: HTTP 500/],
    ['garbage instead of JSON', (srv) => srv.intercept((_q, res, url) => atSlav(url) && (res.writeHead(200, { 'content-type': 'application/json' }).end('<html>{{{'), true)), /the answer is not JSON/],
    ['a wrong shape', (srv) => srv.intercept((_q, res, url) => atSlav(url) && (res.writeHead(200).end('{"white":1,"draws":0,"black":0,"moves":"many"}'), true)), /did not parse: .*moves/],
    ['a closed connection', (srv) => srv.intercept((req, _res, url) => atSlav(url) && (req.socket.destroy(), true)), /could not be reached/],
    ['a stall past the configured bound', (srv) => srv.intercept((_q, res, url) => atSlav(url) && (res.writeHead(200, { 'content-type': 'application/json' }).write('{"white":'), true)), /stopped answering.*no data for 1 s/],
    ['a 50 MB body', (srv) => srv.intercept((_q, res, url) => {
      if (!atSlav(url)) return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 50 && res.write(chunk)) sent += 1;
        if (sent < 50) res.once('drain', () => ((sent += 1), more()));
        else res.end();
      };
      res.on('error', () => undefined);
      more();
      return true;
    }), new RegExp(`larger than ${EXPLORER_BODY_MAX_BYTES} bytes`)],
    ['a 302 to another origin', (srv, other) => srv.intercept((_q, res, url) => atSlav(url) && (res.writeHead(302, { location: `${other}/lichess${url.search}` }).end(), true)), /HTTP 302 redirect to http:\/\/127\.0\.0\.1:\d+, not followed/],
    ['a 5 MB san', (srv) => srv.intercept((_q, res, url) => atSlav(url) && (res.writeHead(200).end(answer({ moves: [{ ...moves(1)[0], san: 'N'.repeat(5 * 1024 * 1024) }] })), true)), /larger than|moves\.0\.san/],
    ['markup in san', (srv) => srv.intercept((_q, res, url) => atSlav(url) && (res.writeHead(200).end(answer({ moves: [{ ...moves(1)[0], san: '<img src=x>' }] })), true)), /moves\.0\.san/],
    ['an opening name past the bound', (srv) => srv.intercept((_q, res, url) => atSlav(url) && (res.writeHead(200).end(answer({ opening: { eco: 'D10', name: 'x'.repeat(OPENING_NAME_MAX + 1) } })), true)), /opening\.name/],
    ['more moves than asked for', (srv) => srv.intercept((_q, res, url) => atSlav(url) && (res.writeHead(200).end(answer({ moves: moves(EXPLORER_MOVES + 1) })), true)), new RegExp(`more than the ${EXPLORER_MOVES} moves asked for`)],
  ];

  for (const [name, play, reason] of modes) {
    test(`${name}: stored with its reason, shown, logged; no second request or charge during the back-off; the retry is not charged`, async () => {
      // The other origin a redirect points at: it must never be asked.
      let elsewhere = 0;
      const other: Server = createServer((_q, res) => ((elsewhere += 1), res.end(LICHESS)));
      await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
      try {
        play(server, `http://127.0.0.1:${(other.address() as AddressInfo).port}`);
        const { ctx, user } = app.addUser();
        connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_owner');
        addSlavGames(app, user.id);
        expect(peersView(ctx, 'black').status.state).toBe('queued');
        await runs.settled(runKeyOf(user.id));
        const asked = explorerRequests();
        // The two positions before the Slav exchange are cached; the bad answer is not.
        expect(cachedRows()).toBe(2);
        const view = peersView(ctx, 'black');
        expect(view.status.state).toBe('error');
        expect(view.status.message).toMatch(reason);
        expect(view.status.message).toMatch(/1 failed try in a row; the next read after 2026-11-20T12:01:00\.000Z tries again/);
        expect(warn.mock.calls.some(([line]: unknown[]) => /opening-explorer fetch failed/.test(String(line)) && reason.test(String(line)))).toBe(true);
        // The same reason from the store, whichever process reads: the table holds it.
        expect(app.deps.store.sqlite.prepare('SELECT state, failures FROM explorer_fetches').all()).toEqual([{ state: 'error', failures: 1 }]);
        // Ten more reads during the back-off: no request, no charge.
        for (let i = 0; i < 10; i += 1) expect(peersView(ctx, 'black').status.state).toBe('error');
        expect(explorerRequests()).toBe(asked);
        // The back-off over, the retry starts without a charge: the bucket (2 an hour) still has its second unit.
        app.clock.set(new Date('2026-11-20T12:01:00Z'));
        server.intercept(null);
        expect(peersView(ctx, 'black').status.state).toBe('queued');
        await runs.settled(runKeyOf(user.id));
        expect(peersView(ctx, 'black').status).toMatchObject({ state: 'ok', cached: 3 });
        expect(app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM explorer_fetches').get()).toEqual({ n: 0 });
        expect(() => app.deps.limiter.take('scout', user.id)).not.toThrow();
        expect(elsewhere).toBe(0);
      } finally {
        await new Promise<void>((r) => other.close(() => r()));
      }
    }, 20_000);
  }

  test('failures in a row wait longer each time (1, 2, 4 minutes)', async () => {
    server.intercept((_q, res, url) => atSlav(url) && (res.writeHead(500).end(), true));
    const { ctx, user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_owner');
    addSlavGames(app, user.id);
    const retryAt = () => (app.deps.store.sqlite.prepare('SELECT retry_at AS at FROM explorer_fetches').get() as { at: string }).at;
    const at = (iso: string) => app.clock.set(new Date(iso));
    peersView(ctx, 'black');
    await runs.settled(runKeyOf(user.id));
    expect(retryAt()).toBe('2026-11-20T12:01:00.000Z');
    at('2026-11-20T12:01:00Z');
    peersView(ctx, 'black');
    await runs.settled(runKeyOf(user.id));
    expect(retryAt()).toBe('2026-11-20T12:03:00.000Z');
    at('2026-11-20T12:03:00Z');
    peersView(ctx, 'black');
    await runs.settled(runKeyOf(user.id));
    expect(retryAt()).toBe('2026-11-20T12:07:00.000Z');
  });
});

describe('one explorer request at a time per store, across processes', () => {
  let server: FixtureServer;
  let opened: { mostOpen(): number };
  let app: TestApp;
  let second: TestApp['deps'];
  let closeSecond: () => Promise<void>;
  let runsA: PeerRuns;
  let runsB: PeerRuns;

  beforeEach(async () => {
    server = await startFixtureServer();
    playExplorer(server);
    opened = countOpenRequests(server, 40);
    // Two scout fetches an hour, so a second charge would show.
    app = makeTestApp({ env: { CFP_LICHESS_EXPLORER_URL: server.url, CFP_RATE_LIMITS: 'scout:2/3600' } });
    // A second process: its own store connection and its own app (its own site turns and runners).
    ({ deps: second, close: closeSecond } = secondProcess(app));
    runsA = new PeerRuns(app.deps, { sleep: async () => undefined });
    runsB = new PeerRuns(second, { sleep: async () => undefined });
    setPeerRuns(app.deps, runsA);
    setPeerRuns(second, runsB);
  });
  afterEach(async () => {
    runsA.stop();
    runsB.stop();
    await closeSecond();
    await server.close();
    await app.close();
  });

  const withSlav = (name: string) => {
    const o = app.addUser(name);
    connectSource(app.deps, o.user.id, 'siteB', `owner${o.user.id.slice(0, 4)}`, 'lip_owner');
    addSlavGames(app, o.user.id);
    return o;
  };
  const explorerRequests = () => server.requests.filter((r) => r.path.startsWith('/lichess')).length;

  test('two processes on one store (serve and mcp over stdio), two owners: their requests never overlap', async () => {
    const p = withSlav('P');
    const q = withSlav('Q');
    peersView(p.ctx, 'black');
    peersView({ ...q.ctx, ...second, user: q.user }, 'black');
    await Promise.all([runsA.settled(`${p.user.id} black 1600 blitz `), runsB.settled(`${q.user.id} black 1600 blitz `)]);
    expect(explorerRequests()).toBe(6);
    expect(opened.mostOpen()).toBe(1);
  });

  test('one owner read by both at once: each position is asked once (the cache is looked at again under the lease)', async () => {
    // Found by the sweep's explorerFailures family (test/bench/sweepExplorer.ts): `serve` and `mcp` over stdio read one
    // owner's peers at once, 19 explorer requests for 18 positions. Both runs found a position missing before the
    // lease; the one that waited then asked it again, though the other had stored it meanwhile.
    const p = withSlav('P');
    peersView(p.ctx, 'black');
    peersView({ ...p.ctx, ...second, user: p.user }, 'black');
    await Promise.all([runsA.settled(`${p.user.id} black 1600 blitz `), runsB.settled(`${p.user.id} black 1600 blitz `)]);
    // The Slav line's three positions (slav.ts), each once.
    expect(explorerRequests()).toBe(3);
    expect(opened.mostOpen()).toBe(1);
    expect(peersView(p.ctx, 'black').status).toMatchObject({ state: 'ok', cached: 3 });
  });

  test('one owner read by both at once: one run, charged once; the other process reports that run and starts nothing', async () => {
    // Found by the sweep's explorerFailures family: both processes started a run of the same view and each charged
    // the owner's scout bucket for the same work (item 7: never twice for the same work).
    const p = withSlav('P');
    const key = `${p.user.id} black 1600 blitz `;
    expect(peersView(p.ctx, 'black').status.state).toMatch(/queued|fetching/);
    expect(peersView({ ...p.ctx, ...second, user: p.user }, 'black').status).toMatchObject({ state: 'fetching', message: EXPLORER_ELSEWHERE });
    expect(runsB.running(key)).toBeNull();
    await runsA.settled(key);
    expect(explorerRequests()).toBe(3);
    // One unit of the two spent: one more is there, then none.
    expect(() => second.limiter.take('scout', p.user.id)).not.toThrow();
    expect(() => second.limiter.take('scout', p.user.id)).toThrow();
    // The run over, its claim is gone: the other process's next read reports the cached view itself.
    expect(peersView({ ...p.ctx, ...second, user: p.user }, 'black').status).toMatchObject({ state: 'ok', cached: 3 });
  });
});
