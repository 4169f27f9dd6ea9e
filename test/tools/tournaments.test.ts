import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { FixtureServer } from '../helpers/fixtureServer.js';
import { CourtesyGate } from '../../src/sources/chessresults/courtesy.js';
import { estimatePairings } from '../../tools/tournaments/estimate_pairings.js';
import { estimateRound1 } from '../../tools/tournaments/estimate_round1.js';
import { getTournamentState } from '../../tools/tournaments/get_tournament_state.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { chessResultsServer, jeddahPages, useClient, virtualTiming } from '../helpers/chessResultsFixture.js';
import { startFixtureServer } from '../helpers/fixtureServer.js';

const TNR = '1473782';
const MCP = { surface: 'mcp' as const, key: 'mcp' };
let app: TestApp;
let server: FixtureServer;
afterEach(async () => {
  await server?.close();
  await app?.close();
});

type State = {
  name: string;
  roundsPlayed: number;
  roundsPaired: number;
  roundsTotal: number;
  snapshotAt: string;
  players: Array<{ startingRank: number; points: number; rounds: Array<{ outcome: string; opponent: number | null }> }>;
  currentRound: { round: number; complete: boolean; boards: unknown[] };
};

describe('get_tournament_state (no token)', () => {
  test('combines starting list, crosstable and the live round page', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR]));
    useClient(app, server);
    const r = await app.call(getTournamentState, { tnr: TNR });
    expect(r.status).toBe(200);
    const s = r.body as State;
    expect(s.name).toBe('Jeddah Season Chess Championship Qualifiers - 10 August 2026');
    expect([s.roundsPlayed, s.roundsPaired, s.roundsTotal]).toEqual([1, 2, 7]);
    expect(s.currentRound.round).toBe(2);
    expect(s.currentRound.complete).toBe(false); // boards 3, 4, 6, 10–13 have no result yet
    expect(s.currentRound.boards).toHaveLength(16);
    const p = (n: number) => s.players.find((x) => x.startingRank === n)!;
    expect(s.players).toHaveLength(32);
    // No. 1: won round 1 ("16b1"), board 1 of round 2 reads 1 - 0 → 2 points.
    expect(p(1).points).toBe(2);
    expect(p(1).rounds.map((x) => x.outcome)).toEqual(['win', 'win']);
    // No. 7: forfeit win ("22b+"), then ½ - ½ on board 7 → 1.5.
    expect(p(7).points).toBe(1.5);
    // No. 28: lost round 1 ("13w0"), then won by forfeit (board 14, "- - +") → 1.
    expect(p(28).rounds.map((x) => x.outcome)).toEqual(['loss', 'forfeitWin']);
    expect(p(28).points).toBe(1);
    // No. 32: absent in round 1 ("-0"), beat No. 23 on board 16 (0 - 1) → 1.
    expect(p(32).rounds[0]).toMatchObject({ outcome: 'zeroBye', opponent: null });
    expect(p(32).points).toBe(1);
    // No. 3: game against No. 12 still in play.
    expect(p(3).rounds[1]).toMatchObject({ outcome: 'pending', opponent: 12 });
    expect(p(3).points).toBe(1);
    expect(s.snapshotAt).toBe('2026-11-20T12:00:00.000Z');
    // Three English, all-rows requests: starting rank, crosstable, round 2.
    expect(server.requests.map((q) => new URL(q.path, 'http://x').searchParams.get('art'))).toEqual(['0', '5', '2']);
    for (const q of server.requests) {
      expect(q.path).toMatch(/^\/tnr1473782\.aspx\?lan=1&art=\d(&rd=2)?&zeilen=99999&turdet=YES$/);
      expect(q.headers['user-agent']).toBe('cfp-test');
    }
  });

  test('pages are cached for 60 s and snapshotAt tells their age', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR]));
    useClient(app, server);
    await app.call(getTournamentState, { tnr: TNR });
    app.clock.advance(30_000);
    const again = await app.call(getTournamentState, { tnr: TNR });
    expect(server.requests).toHaveLength(3); // nothing fetched the second time
    expect((again.body as State).snapshotAt).toBe('2026-11-20T12:00:00.000Z');
    app.clock.advance(31_000); // 61 s after the first fetch
    const fresh = await app.call(getTournamentState, { tnr: TNR });
    expect(server.requests).toHaveLength(6);
    expect((fresh.body as State).snapshotAt).toBe('2026-11-20T12:01:01.000Z');
  });

  test('a renamed column on one page fails the whole call loudly (502), with no partial data', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR], () => ({
      ...jeddahPages(),
      art5: jeddahPages().art5.replace('<th class="CR">Name</th>', '<th class="CR">Player</th>'),
    })));
    useClient(app, server);
    const r = await app.call(getTournamentState, { tnr: TNR });
    expect(r.status).toBe(502);
    expect(r.body).toEqual({
      error: expect.stringMatching(/^the tournament source could not be read \(page layout changed or fetch failed\): crosstable: no table with the columns No\., Name/),
    });
    expect(Object.keys(r.body as object)).toEqual(['error']);
  });

  test('an upstream error status is the same fixed 502', async () => {
    app = makeTestApp();
    server = await startFixtureServer();
    server.route(`/tnr${TNR}.aspx`, (_q, res) => void res.writeHead(500).end('oops'));
    useClient(app, server);
    const r = await app.call(getTournamentState, { tnr: TNR });
    expect(r.status).toBe(502);
    expect((r.body as { error: string }).error).toBe('the tournament source could not be read (page layout changed or fetch failed): chess-results answered HTTP 500; try again later');
  });

  test('a 429 and a silent site are the same fixed 502, promptly, naming no URL', async () => {
    app = makeTestApp();
    server = await startFixtureServer();
    server.route(`/tnr${TNR}.aspx`, (_q, res) => void res.writeHead(429, { 'retry-after': '3600' }).end());
    server.route('/tnr43.aspx', () => undefined); // never answers
    const client = useClient(app, server);
    (client as unknown as { opts: { polite: object } }).opts.polite = { connectTimeoutMs: 200, maxRetries: 0 };
    const refused = await app.call(getTournamentState, { tnr: TNR });
    expect(refused).toMatchObject({ status: 502, body: { error: 'the tournament source could not be read (page layout changed or fetch failed): chess-results kept refusing requests (429); try again in a few minutes' } });
    const silent = await app.call(getTournamentState, { tnr: '43' });
    expect(silent).toMatchObject({ status: 502, body: { error: 'the tournament source could not be read (page layout changed or fetch failed): chess-results did not answer (the site may be down or slow); try again later' } });
  });

  test('offline (nothing listens at the address): said as unreachable, apart from a changed page (issue 45 item 13)', async () => {
    app = makeTestApp();
    server = await startFixtureServer();
    const client = useClient(app, server);
    await server.close();
    (client as unknown as { opts: { polite: object } }).opts.polite = { connectTimeoutMs: 200, maxRetries: 0 };
    const offline = await app.call(getTournamentState, { tnr: TNR });
    expect(offline).toMatchObject({
      status: 502,
      body: { error: 'the tournament source could not be read (page layout changed or fetch failed): chess-results could not be reached (is this machine offline?); nothing was read, try again once connected' },
    });
  });
});

describe('redirects', () => {
  let logged: string[] = [];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  });
  afterEach(() => vi.restoreAllMocks());

  test('followed within the configured host', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR]));
    server.route('/tnr42.aspx', (req, res, url) => void res.writeHead(302, { location: `/tnr${TNR}.aspx${url.search}` }).end());
    useClient(app, server);
    const r = await app.call(estimateRound1, { tnr: '42' });
    expect(r.status).toBe(200);
    // Two pages (starting list, round 1), each redirected once.
    expect(server.requests.map((q) => q.path.split('?')[0])).toEqual(['/tnr42.aspx', `/tnr${TNR}.aspx`, '/tnr42.aspx', `/tnr${TNR}.aspx`]);
  });

  test('a redirect to another host is refused, not followed', async () => {
    app = makeTestApp();
    server = await startFixtureServer();
    server.route('/tnr42.aspx', (_q, res) => void res.writeHead(302, { location: 'http://127.0.0.2:1/tnr42.aspx' }).end());
    useClient(app, server);
    const r = await app.call(estimateRound1, { tnr: '42' });
    expect(r.status).toBe(502);
    const error = (r.body as { error: string }).error;
    expect(error).toBe('the tournament source could not be read (page layout changed or fetch failed): fetch failed: redirected off the configured host');
    // Fixed: neither the configured base URL nor the redirect target reaches the caller; the server log has both.
    expect(error).not.toContain('127.0.0.');
    expect(logged.join('\n')).toContain('http://127.0.0.2:1/tnr42.aspx');
    expect(logged.join('\n')).toContain(server.url);
  });

  test('a redirect whose Location cannot be parsed is the fixed 502, not a 500', async () => {
    app = makeTestApp();
    server = await startFixtureServer();
    server.route('/tnr42.aspx', (_q, res) => void res.writeHead(302, { location: 'http://[::1' }).end());
    useClient(app, server);
    const r = await app.call(estimateRound1, { tnr: '42' });
    expect(r.status).toBe(502);
    expect((r.body as { error: string }).error).toBe('the tournament source could not be read (page layout changed or fetch failed): fetch failed: a redirect to an unreadable Location');
    expect(logged.join('\n')).toContain('"http://[::1"');
  });
});

describe('tnr: digits over REST, chess-results URLs over MCP only', () => {
  test('REST refuses a URL; nothing is fetched', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR]));
    useClient(app, server);
    const r = await app.call(estimateRound1, { tnr: `https://chess-results.com/tnr${TNR}.aspx` });
    expect(r.status).toBe(400);
    expect(server.requests).toHaveLength(0);
  });

  test('MCP takes only the digits from any *.chess-results.com URL', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR]));
    useClient(app, server);
    for (const url of [
      `https://s2.chess-results.com/tnr${TNR}.aspx?lan=1&art=0&SNode=S0`,
      `http://CHESS-RESULTS.COM/Tnr${TNR}.aspx`,
      `https://archive.chess-results.com/tnr${TNR}.aspx?art=99&x=<script>`,
    ]) {
      const r = await app.call(estimateRound1, { tnr: url }, undefined, MCP);
      expect(r.status).toBe(200);
    }
    // Whatever the URL said, we asked our configured host for the tnr's starting list and round 1 only (then cached).
    expect(server.requests.map((q) => q.path)).toEqual([`/tnr${TNR}.aspx?lan=1&art=0&zeilen=99999&turdet=YES`, `/tnr${TNR}.aspx?lan=1&art=2&rd=1&zeilen=99999&turdet=YES`]);
  });

  test('MCP refuses other hosts and schemes with 400; nothing is fetched', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR]));
    useClient(app, server);
    for (const url of [
      `https://evil.example/tnr${TNR}.aspx`,
      `https://chess-results.com.evil.example/tnr${TNR}.aspx`,
      `https://notchess-results.com/tnr${TNR}.aspx`,
      `ftp://chess-results.com/tnr${TNR}.aspx`,
      `https://chess-results.com/tournament.aspx?tnr=${TNR}`,
      'tnr1473782',
      '1473782; DROP',
    ]) {
      const r = await app.call(estimateRound1, { tnr: url }, undefined, MCP);
      expect(r.status, url).toBe(400);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('the courtesy cap under concurrent tool calls', () => {
  test('never more than one request in flight; calls past the 8 s wait get 503 + Retry-After, the rest full answers', async () => {
    app = makeTestApp();
    const tnrs = Array.from({ length: 12 }, (_, i) => String(1000001 + i));
    let stats;
    ({ server, stats } = await chessResultsServer(tnrs));
    const timing = virtualTiming();
    useClient(app, server, new CourtesyGate(1000, 8000, timing));
    const results = await Promise.all(tnrs.map((tnr) => app.call(getTournamentState, { tnr })));
    expect(stats.maxInFlight).toBe(1);
    const ok = results.filter((r) => r.status === 200);
    const capped = results.filter((r) => r.status === 503);
    expect(ok.length + capped.length).toBe(tnrs.length);
    // Twelve calls ask for their first page at once: only the slots 0, 1, …, 8 s are within the 8 s wait,
    // so at least three are refused straight away.
    expect(capped.length).toBeGreaterThanOrEqual(3);
    for (const r of capped) {
      expect(r.headers['Retry-After']).toMatch(/^\d+$/);
      expect((r.body as { error: string }).error).toMatch(/^the global outbound courtesy cap to the tournament source was reached/);
    }
    for (const r of ok) expect((r.body as State).players).toHaveLength(32);
  });
});

describe('estimate_round1', () => {
  type R1 = {
    isEstimate: boolean;
    coloursReliable: boolean;
    round1Published: boolean;
    boards: Array<{ board: number; white: { startingRank: number }; black: { startingRank: number } }>;
    byes: Array<{ startingRank: number }>;
    absent: unknown[];
  };
  const seats = (b: R1) => b.boards.map((x) => [x.white.startingRank, x.black.startingRank]);

  test('before round 1 (its page 404): top half against bottom half of the 32 seeds, White assumed for the top seed', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR], () => ({ ...jeddahPages(), art2rd1: undefined })));
    useClient(app, server);
    const r = await app.call(estimateRound1, { tnr: TNR });
    expect(r.status).toBe(200);
    const b = r.body as R1;
    expect([b.isEstimate, b.coloursReliable, b.round1Published]).toEqual([true, false, true]);
    expect(b.boards).toHaveLength(16);
    // n = 32: seed i meets seed i + 16; the top seed has White on odd boards.
    expect(seats(b).slice(0, 3)).toEqual([[1, 17], [18, 2], [3, 19]]);
    expect(seats(b)[15]).toEqual([32, 16]);
    expect([b.byes, b.absent]).toEqual([[], []]);
    expect(server.requests.map((q) => new URL(q.path, 'http://x').searchParams.get('art'))).toEqual(['0', '2']);
  });

  test('round 1’s own page: No. 32 "not paired" is left out and the published board 1 gives the lot; the estimate is the real round 1', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR]));
    useClient(app, server);
    const r = await app.call(estimateRound1, { tnr: TNR });
    expect(r.status).toBe(200);
    const b = r.body as R1;
    expect([b.isEstimate, b.coloursReliable, b.round1Published]).toEqual([true, true, true]);
    expect(b.absent).toEqual([{ startingRank: 32, name: 'Abdel Rahman, Ahmed', kind: 'zeroBye', seenOn: ['roundPage'] }]);
    // The saved round 1 page (jeddah2026_r1.html), board by board: 16–1, 2–17, 18–3, … 30–15, and the bye for No. 31.
    const real: Array<[number, number]> = Array.from({ length: 15 }, (_, i) => (i % 2 === 0 ? [16 + i, 1 + i] : [1 + i, 16 + i]));
    expect(seats(b)).toEqual(real);
    expect(b.byes.map((x) => x.startingRank)).toEqual([31]);
    expect(server.requests).toHaveLength(2);
  });

  test('target returns just that player’s board (case, commas and spacing ignored); an unknown name is 404', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR]));
    useClient(app, server);
    const r = await app.call(estimateRound1, { tnr: TNR, target: '  abousamra   TAMER ' });
    expect(r.status).toBe(200);
    expect((r.body as { boards: unknown[] }).boards).toEqual([
      { board: 2, white: { startingRank: 2, name: 'Badr, Mahmoud Ali', rating: 2065, points: 0 }, black: { startingRank: 17, name: 'Abousamra, Tamer', rating: 1616, points: 0 } },
    ]);
    const none = await app.call(estimateRound1, { tnr: TNR, target: 'Magnus Carlsen' });
    expect(none.status).toBe(404);
  });
});

describe('estimate_pairings', () => {
  test('no next round when every planned round is paired → 409 with the fixed message', async () => {
    app = makeTestApp();
    const allPaired = () => {
      const p = jeddahPages();
      const fix = (s: string) => s.replace('Rd.2/7', 'Rd.2/2');
      return { art0: fix(p.art0), art5: fix(p.art5), art2rd2: fix(p.art2rd2), art2rd3: fix(p.art2rd3) };
    };
    ({ server } = await chessResultsServer([TNR], allPaired));
    useClient(app, server);
    const r = await app.call(estimatePairings, { tnr: TNR });
    expect(r.status).toBe(409);
    expect((r.body as { error: string }).error).toBe(
      'no legal pairing was found for the requested round: all 2 rounds are already paired; there is no next round',
    );
  });
});

describe('estimate_pairings with the real Dutch engine', () => {
  test('round 3 of the saved event: every player exactly once, no rematch, what-if rows for the target', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([TNR], jeddahPages));
    useClient(app, server);
    const state = (await app.call(getTournamentState, { tnr: TNR })).body as State;
    const r = await app.call(estimatePairings, { tnr: TNR, target: 'Al Jabri, Mohammed Ali' });
    expect(r.status).toBe(200);
    const body = r.body as {
      round: number;
      isEstimate: boolean;
      boards: Array<{ white: { startingRank: number }; black: { startingRank: number } }>;
      byes: Array<{ startingRank: number }>;
      whatIf: Array<{ result: string }>;
    };
    expect(body.isEstimate).toBe(true);
    expect(body.round).toBe(state.roundsPaired + 1);
    const seated = [...body.boards.flatMap((b) => [b.white.startingRank, b.black.startingRank]), ...body.byes.map((b) => b.startingRank)];
    expect(new Set(seated).size).toBe(seated.length);
    expect(seated.sort((a, b) => a - b)).toEqual(state.players.map((p) => p.startingRank).sort((a, b) => a - b));
    const met = new Set(state.players.flatMap((p) => p.rounds.filter((x) => x.opponent !== null).map((x) => `${p.startingRank}-${x.opponent}`)));
    for (const b of body.boards) expect(met.has(`${b.white.startingRank}-${b.black.startingRank}`)).toBe(false);
    expect(body.whatIf.map((w) => w.result)).toEqual(['win', 'draw', 'loss']);
  });
});
