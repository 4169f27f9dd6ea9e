import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ownerStamp } from '../../../src/store/ownerStamps.js';
import { tools } from '../../../tools/index.js';
import { ownScout, playerReport, readPlayer, SCOUT_INTERRUPTED, ScoutRuns, scoutTree, setScoutRuns } from '../../../src/services/prep/index.js';
import { addGames, gameRow } from '../../helpers/games.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';

const FIX = join(import.meta.dirname, '../../fixtures/prep');
const lines = (f: string) => readFileSync(join(FIX, f), 'utf8').split('\n').filter((l) => l.trim());
const tool = (name: string) => tools.find((t) => t.name === name)!;

/** lichess's export as the API documents it: since (inclusive, createdAt), sort, max. */
function playExport(server: FixtureServer, served: string[]) {
  const asked: URL[] = [];
  server.route('prefix:/api/games/user/', (_req, res, url) => {
    asked.push(url);
    const since = Number(url.searchParams.get('since') ?? 0);
    const max = Number(url.searchParams.get('max') ?? Infinity);
    const games = served
      .map((l) => ({ l, at: (JSON.parse(l) as { createdAt: number }).createdAt }))
      .filter((g) => g.at >= since)
      .sort((a, b) => (url.searchParams.get('sort') === 'dateAsc' ? a.at - b.at : b.at - a.at))
      .slice(0, max);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const g of games) res.write(g.l + '\n');
    res.end();
  });
  return asked;
}

describe('scouting a lichess player', () => {
  let app: TestApp;
  let server: FixtureServer;
  let served: string[];
  let asked: URL[];
  let runs: ScoutRuns;

  beforeEach(async () => {
    server = await startFixtureServer();
    served = lines('rivalx.ndjson');
    asked = playExport(server, served);
    app = makeTestApp({ env: { CFP_LICHESS_URL: server.url, CFP_CHESSCOM_URL: server.url } });
    runs = new ScoutRuns(app.deps, { sleep: async () => {} });
    setScoutRuns(app.deps, runs);
  });
  afterEach(async () => {
    runs.stop();
    await server.close();
    await app.close();
  });

  async function scout(ctx: ReturnType<TestApp['addUser']>['ctx'], opts = {}) {
    runs.start(ctx.user.id, 'siteB', 'RivalX', opts);
    await runs.settled(ctx.user.id, 'siteB', 'rivalx');
    return ownScout(ctx, 'siteB', 'rivalx');
  }

  test('the tree, scores and shares of the fixture player, worked out by hand', async () => {
    const { ctx } = app.addUser();
    const row = await scout(ctx);
    // One request: the newest 500 games since 12 months before 2026-11-20T12:00Z (G0, of 2025-10-01, is older).
    expect(asked).toHaveLength(1);
    expect(asked[0].pathname).toBe('/api/games/user/rivalx');
    expect(asked[0].searchParams.get('since')).toBe(String(Date.parse('2025-11-20T12:00:00Z')));
    expect(asked[0].searchParams.get('max')).toBe('500');
    expect(asked[0].searchParams.get('sort')).toBe('dateDesc');

    const white = scoutTree(ctx, row, 'white', '');
    // G1 e4 W, G2 e4 L, G3 e4 D, G4 d4 W: 2.5 / 4.
    expect(white).toMatchObject({ games: 4, score: 62.5, endedHere: 0 });
    expect(white.nextMoves.map((m) => [m.san, m.games, m.win, m.draw, m.loss, m.score, m.share])).toEqual([
      ['e4', 3, 1, 1, 1, 50, 75],
      ['d4', 1, 1, 0, 0, 100, 25],
    ]);
    const afterE4 = scoutTree(ctx, row, 'white', 'e4');
    expect(afterE4.nextMoves.map((m) => [m.san, m.games, m.score, m.share])).toEqual([
      ['c5', 2, 25, 66.7],
      ['e5', 1, 100, 33.3],
    ]);
    const sicilian = scoutTree(ctx, row, 'white', 'e4 c5');
    expect(sicilian.nextMoves.map((m) => [m.san, m.lineMoves, m.score, m.share])).toEqual([
      ['Nc3', 'e4 c5 Nc3', 50, 50],
      ['Nf3', 'e4 c5 Nf3', 0, 50],
    ]);
    const black = scoutTree(ctx, row, 'black', '');
    // G5 (1.e4, they win) and G6 (1.d4, they lose).
    expect(black.nextMoves.map((m) => [m.san, m.score, m.share])).toEqual([
      ['d4', 0, 50],
      ['e4', 100, 50],
    ]);
  });

  test('the report: time classes, form, rating trend, worst lines and where the owner meets them', async () => {
    const { ctx, user } = app.addUser();
    // The owner's own games as black (newest first: o1, o2, o3); o3 reaches 1.d4 d5 2.c4 by 1.c4 d5 2.d4.
    addGames(app.deps.store, app.clock, [
      gameRow(user.id, { sourceId: 'o1', colour: 'black', result: 'win', playedAt: '2026-10-03T00:00:00.000Z', sanMoves: 'e4 c5 Nf3 d6 d4 cxd4', movesSource: 'pgn' }),
      gameRow(user.id, { sourceId: 'o2', colour: 'black', result: 'loss', playedAt: '2026-10-02T00:00:00.000Z', sanMoves: 'd4 d5 c4 e6', movesSource: 'pgn' }),
      gameRow(user.id, { sourceId: 'o3', colour: 'black', result: 'draw', playedAt: '2026-10-01T00:00:00.000Z', sanMoves: 'c4 d5 d4 Nf6', movesSource: 'pgn' }),
    ]);
    const report = await playerReport(ctx, await scout(ctx));
    expect(report.scout).toMatchObject({ state: 'ok', games: 6, lastFetch: { fetched: 6, stored: 6, requests: 1 } });
    expect(report.window).toEqual({ from: '2026-11-01T10:00:00.000Z', to: '2026-11-06T10:00:00.000Z' });
    expect(report.byColour.white).toEqual({ games: 4, win: 2, draw: 1, loss: 1, score: 62.5 });
    expect(report.byColour.black).toEqual({ games: 2, win: 1, draw: 0, loss: 1, score: 50 });
    expect(report.timeClasses).toEqual([
      { timeClass: 'blitz', games: 5, win: 3, draw: 0, loss: 2, score: 60 },
      { timeClass: 'rapid', games: 1, win: 0, draw: 1, loss: 0, score: 50 },
    ]);
    // Newest first: G6 L, G5 W, G4 W, G3 D, G2 L, G1 W = 3.5 / 6.
    expect(report.recentForm).toEqual({ games: 6, win: 3, draw: 1, loss: 2, score: 58.3, results: 'LWWDLW' });
    // Rating after each game = rating + ratingDiff: blitz 1606, 1600, 1605, 1612, 1604; rapid 1700.
    expect(report.ratingTrend[0]).toMatchObject({ timeClass: 'blitz', games: 5, first: { rating: 1606 }, last: { rating: 1604 }, change: -2, monthly: [{ month: '2026-11', rating: 1604 }] });
    expect(report.ratingTrend[1]).toMatchObject({ timeClass: 'rapid', games: 1, change: 0 });
    // Only 1.e4 has 3 games as white (50%); no black line has 3.
    expect(report.worstLines).toEqual({ white: [{ lineMoves: 'e4', games: 3, score: 50 }], black: [] });
    // Positions both reach: 1.e4, 1.e4 c5, … 3.d4 (o1 and G2), 1.d4, 1.d4 d5, 1.d4 d5 2.c4 (o2, o3 by transposition, G4).
    // Games that part from the common ground there (owner + theirs): 1.d4 d5 2.c4: o2 (e6), o3 (Nf6), G4 (ends) = 3;
    // 3.d4 after e4 c5 Nf3 d6: o1 (cxd4), G2 (ends) = 2; 1.e4 c5: G3 (Nc3) = 1; 1.e4: G1 (e5) = 1; the rest 0.
    expect(report.meetingPoints.white.map((m) => [m.lineMoves, m.ply, m.owner, m.them])).toEqual([
      ['d4 d5 c4', 3, { games: 2, score: 25 }, { games: 1, score: 100 }],
      ['e4 c5 Nf3 d6 d4', 5, { games: 1, score: 100 }, { games: 1, score: 0 }],
      ['e4 c5', 2, { games: 1, score: 100 }, { games: 2, score: 25 }],
      ['e4', 1, { games: 1, score: 100 }, { games: 3, score: 50 }],
    ]);
    expect(report.meetingPoints.black).toEqual([]);
  });

  test('a repeat asks only for what is new, and the bounds hold', async () => {
    const { ctx } = app.addUser();
    await scout(ctx);
    served.push(...lines('rivalx_later.ndjson'));
    const row = await scout(ctx);
    expect(asked).toHaveLength(2);
    // since = G6's createdAt + 1 ms: lichess's since is inclusive.
    expect(asked[1].searchParams.get('since')).toBe(String(Date.parse('2026-11-06T10:00:00Z') + 1));
    expect(runs.statusOf(row)).toMatchObject({ games: 7, lastFetch: { fetched: 1, stored: 1, requests: 1 } });
    // A third with nothing new stores nothing.
    await scout(ctx);
    expect(runs.statusOf(row)).toMatchObject({ games: 7, lastFetch: { fetched: 0, stored: 0 } });

    const other = app.addUser().ctx;
    const capped = await scout(other, { maxGames: 3 });
    expect(asked.at(-1)!.searchParams.get('max')).toBe('3');
    expect(runs.statusOf(capped).games).toBe(3);
  });

  test("scouted games appear in none of the owner's views, and another owner finds none of them", async () => {
    const a = app.addUser();
    const b = app.addUser();
    addGames(app.deps.store, app.clock, [gameRow(a.user.id, { sourceId: 'own1', sanMoves: 'e4 e5', movesSource: 'pgn' })]);
    await scout(a.ctx);
    const list = await app.call(tool('list_games'), {}, a.token);
    expect(list.status).toBe(200);
    expect((list.body as { total: number }).total).toBe(1);
    const stats = await app.call(tool('get_chess_stats'), {}, a.token);
    expect(JSON.stringify(stats.body)).not.toMatch(/RivalX|OppG/i);
    expect((stats.body as { overall?: { games: number } }).overall?.games ?? 1).toBe(1);
    const weakness = await app.call(tool('get_weakness_profile'), {}, a.token);
    expect(JSON.stringify(weakness.body)).not.toMatch(/RivalX|OppG/i);
    expect(app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM games').get()).toEqual({ n: 1 });
    // B never scouted: not found, exactly as a player nobody scouted.
    expect(() => ownScout(b.ctx, 'siteB', 'rivalx')).toThrow(/no scout of siteB player rivalx/);
    expect(() => ownScout(b.ctx, 'siteB', 'nobody')).toThrow(/no scout of siteB player nobody/);
  });

  test('forgetting a scout mid-fetch cancels the fetch: nothing stored, nothing logged (issue 37, item 7)', async () => {
    let answered!: () => void;
    const halfway = new Promise<void>((r) => (answered = r));
    server.intercept(async (_req, res, url) => {
      if (!url.pathname.startsWith('/api/games/user/')) return false;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(served[0] + '\n');
      answered();
      // The rest comes late: the owner forgets the player meanwhile.
      await new Promise((r) => setTimeout(r, 300));
      for (const l of served.slice(1)) if (!res.destroyed) res.write(l + '\n');
      res.end();
      return true;
    });
    const errors: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...a) => void errors.push(a));
    try {
      const a = app.addUser();
      runs.start(a.user.id, 'siteB', 'RivalX');
      await halfway;
      expect(runs.forget(a.user.id, 'siteB', 'rivalx')).toBe(true);
      await runs.settled(a.user.id, 'siteB', 'rivalx'); // the row is gone: nothing to wait for by name
      await new Promise((r) => setTimeout(r, 500));
      expect(errors).toEqual([]);
      expect(app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM scout_games').get()).toEqual({ n: 0 });
      expect(app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM scouts').get()).toEqual({ n: 0 });
      expect(runs.forget(a.user.id, 'siteB', 'rivalx')).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  test("the report is kept until the owner's games or scouts change; another owner's scout changes nothing of it (issue 37, item 2)", async () => {
    const a = app.addUser();
    const b = app.addUser();
    addGames(app.deps.store, app.clock, [gameRow(a.user.id, { sourceId: 'own1', colour: 'black', sanMoves: 'e4 c5', movesSource: 'pgn' })]);
    const row = await scout(a.ctx);
    const prep = (userId: string) => ownerStamp(app.deps.store, userId).prepVersion;
    const before = { a: prep(a.user.id), b: prep(b.user.id) };
    expect(before.a).toBeGreaterThan(0);
    const first = await playerReport(a.ctx, row);
    expect((await playerReport(a.ctx, row)).meetingPoints).toBe(first.meetingPoints);
    // B's scout of the same player bumps B's version only; A's report stays kept.
    runs.start(b.user.id, 'siteB', 'RivalX');
    await runs.settled(b.user.id, 'siteB', 'rivalx');
    expect(prep(b.user.id)).toBeGreaterThan(before.b);
    expect(prep(a.user.id)).toBe(before.a);
    expect((await playerReport(a.ctx, row)).meetingPoints).toBe(first.meetingPoints);
    // A new game of A's: computed again, and it counts.
    addGames(app.deps.store, app.clock, [gameRow(a.user.id, { sourceId: 'own2', colour: 'black', sanMoves: 'e4 c5 Nf3', movesSource: 'pgn' })]);
    const again = await playerReport(a.ctx, row);
    expect(again.meetingPoints).not.toBe(first.meetingPoints);
    const gamesAt = (r: typeof first) => r.meetingPoints.white.find((m) => m.lineMoves === 'e4 c5')?.owner.games ?? 0;
    expect(gamesAt(again)).toBe(gamesAt(first) + 1);
  });

  test('one request at a time per source, whoever asks; a start while a fetch runs joins it', async () => {
    let open = 0;
    let most = 0;
    server.intercept(async (_req, res, url) => {
      if (!url.pathname.startsWith('/api/games/user/')) return false;
      open += 1;
      most = Math.max(most, open);
      await new Promise((r) => setTimeout(r, 100));
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const l of served) res.write(l + '\n');
      res.end();
      open -= 1;
      return true;
    });
    const a = app.addUser();
    const b = app.addUser();
    runs.start(a.user.id, 'siteB', 'RivalX');
    runs.start(b.user.id, 'siteB', 'SomeoneElse');
    runs.start(a.user.id, 'siteB', 'rivalx'); // joins A's queued fetch: no second request, no second charge
    await runs.settled(a.user.id, 'siteB', 'rivalx');
    await runs.settled(b.user.id, 'siteB', 'someoneelse');
    expect(most).toBe(1);
    expect(server.requests.map((r) => r.path.split('?')[0])).toEqual(['/api/games/user/rivalx', '/api/games/user/someoneelse']);
  });

  test("a 429 waits lichess's minute, whatever Retry-After says, and repeats the request", async () => {
    const waits: number[] = [];
    runs.stop();
    runs = new ScoutRuns(app.deps, { sleep: async (ms) => void waits.push(ms) });
    setScoutRuns(app.deps, runs);
    let refused = false;
    server.intercept((_req, res, url) => {
      if (!url.pathname.startsWith('/api/games/user/') || refused) return false;
      refused = true;
      res.writeHead(429, { 'retry-after': '5' }).end();
      return true;
    });
    const { ctx } = app.addUser();
    const row = await scout(ctx);
    // https://lichess.org/api, "Rate limiting": wait a full minute after a 429.
    expect(waits).toEqual([60_000]);
    expect(runs.statusOf(row)).toMatchObject({ state: 'ok', games: 6, lastFetch: { requests: 2 } });
  });

  test("the scout ignores the export's analysis: damaged analysis on every game still stores all six (issue 37, item 6)", async () => {
    const { ctx } = app.addUser();
    const damaged = [(g: Record<string, unknown>) => (g.analysis = [null, { eval: '12' }, { judgment: { name: 'Good' } }]), (g: Record<string, unknown>) => (g.analysis = { eval: 3 })];
    served.splice(
      0,
      served.length,
      ...served.map((l, i) => {
        const g = JSON.parse(l) as Record<string, unknown> & { players: Record<string, Record<string, unknown>> };
        damaged[i % 2](g);
        g.players.white.analysis = { accuracy: 'high' };
        return JSON.stringify(g);
      }),
    );
    const row = await scout(ctx);
    expect(runs.statusOf(row)).toMatchObject({ state: 'ok', games: 6 });
  });

  test('a player lichess does not know is an error on the scout, nothing stored', async () => {
    const { ctx } = app.addUser();
    server.route('prefix:/api/games/user/', (_req, res) => void res.writeHead(404).end());
    const row = await scout(ctx);
    expect(runs.statusOf(row)).toMatchObject({ state: 'error', games: 0, message: expect.stringMatching(/does not know this player/) });
  });
});

describe('scouting a chess.com player', () => {
  let app: TestApp;
  let server: FixtureServer;
  let runs: ScoutRuns;
  const requests: string[] = [];

  beforeEach(async () => {
    server = await startFixtureServer();
    requests.length = 0;
    const months: Record<string, string> = {
      '2026/10': readFileSync(join(FIX, 'chesscom_2026_10.json'), 'utf8'),
      '2026/11': readFileSync(join(FIX, 'chesscom_2026_11.json'), 'utf8'),
    };
    server.route('/pub/player/rivalx/games/archives', (_req, res) => {
      requests.push('archives');
      const archives = ['2025/09', ...Object.keys(months)].map((m) => `https://api.chess.com/pub/player/rivalx/games/${m}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ archives }));
    });
    server.route('prefix:/pub/player/rivalx/games/', (req, res, url) => {
      const m = url.pathname.split('/games/')[1];
      requests.push(m);
      const body = months[m];
      if (body === undefined) return void res.writeHead(404).end();
      const etag = `"${m}-${body.length}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      res.writeHead(200, { 'content-type': 'application/json', etag }).end(body);
    });
    app = makeTestApp({ env: { CFP_CHESSCOM_URL: server.url } });
    runs = new ScoutRuns(app.deps, { sleep: async () => {} });
    setScoutRuns(app.deps, runs);
  });
  afterEach(async () => {
    runs.stop();
    await server.close();
    await app.close();
  });

  test('months of the window newest first; a repeat revalidates the open month and skips the settled one', async () => {
    const { ctx, user } = app.addUser();
    runs.start(user.id, 'siteA', 'RivalX');
    await runs.settled(user.id, 'siteA', 'rivalx');
    // 2025/09 is outside the 12 months: never asked.
    expect(requests).toEqual(['archives', '2026/11', '2026/10']);
    const row = ownScout(ctx, 'siteA', 'rivalx');
    const report = await playerReport(ctx, row);
    // 1001 e4 as white, won; 1002 d4 as black, lost; 1003 e4 as white, drawn.
    expect(report.byColour.white).toEqual({ games: 2, win: 1, draw: 1, loss: 0, score: 75 });
    expect(report.byColour.black).toEqual({ games: 1, win: 0, draw: 0, loss: 1, score: 0 });
    // chess.com publishes the rating after the game: 1510, 1502, 1503.
    expect(report.ratingTrend[0]).toMatchObject({ timeClass: 'blitz', first: { rating: 1510 }, last: { rating: 1503 }, change: -7 });
    expect(scoutTree(ctx, row, 'white', '').nextMoves.map((m) => [m.san, m.games, m.score])).toEqual([['e4', 2, 75]]);

    requests.length = 0;
    runs.start(user.id, 'siteA', 'rivalx');
    await runs.settled(user.id, 'siteA', 'rivalx');
    // 2026/10 was checked on 2026-11-20, after it settled (2 days past its end): final. 2026/11 answers 304.
    expect(requests).toEqual(['archives', '2026/11']);
    expect(runs.statusOf(row)).toMatchObject({ games: 3, lastFetch: { fetched: 0, stored: 0, requests: 2 } });
  });
});

describe('a scout whose process went away (issue 44 item 7)', () => {
  test('stopped mid-fetch: the row says why; the next read (another process) resumes it without a second charge, and it completes', async () => {
    const server = await startFixtureServer();
    const served = lines('rivalx.ndjson');
    // The first process's export never answers (its client disconnects meanwhile); later ones are served.
    let stall = true;
    server.intercept(() => stall);
    playExport(server, served);
    // One scout an hour: a second charge would be a 429.
    const app = makeTestApp({ env: { CFP_LICHESS_URL: server.url, CFP_RATE_LIMITS: 'scout:1/3600' } });
    const first = new ScoutRuns(app.deps, { sleep: async () => {} });
    setScoutRuns(app.deps, first);
    try {
      const { ctx, user } = app.addUser();
      expect((await readPlayer(ctx, 'siteB', 'RivalX')).scout.state).toBe('queued');
      await new Promise((r) => setTimeout(r, 50));
      // The process ends (stdio client gone): its runner stops.
      first.stop();
      await first.settled(user.id, 'siteB', 'rivalx');
      // Another process on the store: its own runner, which never saw the fetch.
      const second = new ScoutRuns(app.deps, { sleep: async () => {} });
      setScoutRuns(app.deps, second);
      expect(second.status(user.id, 'siteB', 'rivalx')).toMatchObject({ state: 'never-fetched', message: SCOUT_INTERRUPTED, games: 0 });
      stall = false;
      const resumed = await readPlayer(ctx, 'siteB', 'RivalX');
      expect(resumed.scout).toMatchObject({ state: 'queued', message: null });
      await second.settled(user.id, 'siteB', 'rivalx');
      expect(second.status(user.id, 'siteB', 'rivalx')).toMatchObject({ state: 'ok', message: null });
      expect(second.status(user.id, 'siteB', 'rivalx')!.games).toBeGreaterThan(0);
      // The one unit of the bucket was spent once, by the first read: another player is now refused.
      expect(() => second.start(user.id, 'siteB', 'someone-else')).toThrow(/429|limit|rate/i);
      second.stop();
    } finally {
      first.stop();
      await server.close();
      await app.close();
    }
  });
});
