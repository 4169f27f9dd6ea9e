import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { StatsInput } from '../../../schemas/aggregates.js';
import { Stats } from '../../../schemas/aggregates.js';
import { PeersView } from '../../../schemas/peers.js';
import { NO_TOKEN, PeerRuns, peersView, setPeerRuns, TOKEN_REFUSED } from '../../../src/services/peers/index.js';
import { connectSource } from '../../../src/services/sync/connections.js';
import { syncConnection } from '../../../src/services/sync/index.js';
import { tools } from '../../../tools/index.js';
import { peersResource } from '../../../tools/resources.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { countOpenRequests, startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { addGames, gameRow } from '../../helpers/games.js';
import { fixtureLines, playLichess } from '../sync/sourceFixtures.js';
import { addSlavGames, playExplorer, tick } from './slav.js';

describe('openings at your level (lichess opening explorer)', () => {
  let app: TestApp;
  let server: FixtureServer;
  let asked: URL[];
  let runs: PeerRuns;
  let waits: number[];

  beforeEach(async () => {
    server = await startFixtureServer();
    asked = playExplorer(server);
    app = makeTestApp({ env: { CFP_LICHESS_EXPLORER_URL: server.url, CFP_LICHESS_URL: server.url } });
    waits = [];
    runs = new PeerRuns(app.deps, { sleep: async (ms) => void waits.push(ms) });
    setPeerRuns(app.deps, runs);
  });
  afterEach(async () => {
    runs.stop();
    await server.close();
    await app.close();
  });

  const runKeyOf = (userId: string) => `${userId} black 1600 blitz `;

  async function fetched(ctx: ReturnType<TestApp['addUser']>['ctx'], opts = {}) {
    const first = peersView(ctx, 'black', opts);
    await runs.settled(runKeyOf(ctx.user.id) + ((opts as { masters?: boolean }).masters ? 'masters' : ''));
    return { first, then: peersView(ctx, 'black', { ...opts, moves: 'd4 d5 c4 c6 cxd5' }) };
  }

  test('findings equal the figures worked by hand from the real answer; one request per position, none the second time', async () => {
    const { ctx, user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_owner');
    addSlavGames(app, user.id);
    const { first, then } = await fetched(ctx);
    // Positions with the owner (black) to move, reached by 8+ games: after 1.d4, 1.d4 d5 2.c4, and 3.cxd5.
    expect(first.status).toMatchObject({ state: 'queued', positions: 3, cached: 0, progress: { done: 0, total: 3 } });
    expect(first.level).toEqual({ timeClass: 'blitz', ratings: [1600], speeds: ['blitz'], from: 'lichess blitz rating 1650' });
    expect(asked).toHaveLength(3);
    for (const u of asked) {
      expect(u.pathname).toBe('/lichess');
      expect(u.searchParams.get('ratings')).toBe('1600');
      expect(u.searchParams.get('speeds')).toBe('blitz');
    }
    expect(server.requests.every((r) => r.headers.authorization === 'Bearer lip_owner')).toBe(true);
    expect(PeersView.safeParse(then).success).toBe(true);
    expect(then.status).toMatchObject({ state: 'ok', positions: 3, cached: 3, progress: null });

    // By hand from lichess.example.json (total 5,061,745 + 492,487 + 4,458,129 = 10,012,361 games):
    // cxd5 4,517,660 + 450,366 + 4,016,728 = 8,984,754 games, share 89.7%, Black's score (4,016,728 + 450,366/2) / 8,984,754 = 47.2%;
    // Qxd5 424,725 games, 4.2%, (170,379 + 17,561/2) / 424,725 = 42.2%; c5 17,933 games, 0.2%, (6,174 + 678/2) / 17,933 = 36.3%;
    // the best score with 100+ games: Bg4, 7,745 games (0.1%), (3,715 + 255/2) / 7,745 = 49.6% (Nf6 48.7, g6 48.0, e5 47.8 next).
    expect(then.position).toMatchObject({
      lineMoves: 'd4 d5 c4 c6 cxd5',
      games: 11,
      peerGames: 10_012_361,
      mostPlayed: { san: 'cxd5', games: 8_984_754, share: 89.7, score: 47.2 },
      bestScoring: { san: 'Bg4', games: 7_745, share: 0.1, score: 49.6 },
    });
    expect(then.position!.moves.map((m) => [m.san, m.games, m.score, m.peers])).toEqual([
      ['cxd5', 5, 50, { san: 'cxd5', games: 8_984_754, share: 89.7, score: 47.2 }],
      ['c5', 3, 33.3, { san: 'c5', games: 17_933, share: 0.2, score: 36.3 }],
      ['Qxd5', 3, 16.7, { san: 'Qxd5', games: 424_725, share: 4.2, score: 42.2 }],
    ]);
    // c5: 49.6 − 36.3 = 13.3 points ≥ 5 (scoresWorse), share 0.2% < 2% (rare); at stake 3 × 13.3 / 100 = 0.4.
    // Qxd5: 49.6 − 42.2 = 7.4 ≥ 5; 4.2% is not rare; at stake 3 × 7.4 / 100 = 0.2. cxd5: 49.6 − 47.2 = 2.4 < 5, no finding.
    expect(then.findings.map((f) => [f.san, f.reasons, f.games, f.score, f.alternative?.san, f.alternative?.score, f.pointsAtStake])).toEqual([
      ['c5', ['scoresWorse', 'rare'], 3, 33.3, 'Bg4', 49.6, 0.4],
      ['Qxd5', ['scoresWorse'], 3, 16.7, 'Bg4', 49.6, 0.2],
    ]);

    // A second run in the same month asks nothing.
    const again = peersView(ctx, 'black');
    expect(again.status.state).toBe('ok');
    expect(asked).toHaveLength(3);
    // The next month asks again.
    app.clock.set(new Date('2026-12-02T00:00:00Z'));
    expect(peersView(ctx, 'black').status).toMatchObject({ state: 'queued', month: '2026-12', cached: 0 });
    await runs.settled(runKeyOf(user.id));
    expect(asked).toHaveLength(6);
  });

  test("the masters' move beside it when asked", async () => {
    const { ctx, user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_owner');
    addSlavGames(app, user.id);
    const { then } = await fetched(ctx, { masters: true });
    expect(asked.filter((u) => u.pathname === '/masters')).toHaveLength(3);
    // masters.example.json: cxd5 1,927 + 5,215 + 1,468 = 8,610 of 8,611 games (100.0%), Black's score (1,468 + 5,215/2) / 8,610 = 47.3%.
    expect(then.position!.masters).toEqual({ san: 'cxd5', games: 8_610, share: 100, score: 47.3 });
    expect(then.findings[0].masters).toEqual({ san: 'cxd5', games: 8_610, share: 100, score: 47.3 });
  });

  test("a 429 waits lichess's minute and resumes with the refused position", async () => {
    const { ctx, user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_owner');
    addSlavGames(app, user.id);
    let refused = 0;
    server.intercept((_req, res, url) => {
      if (url.pathname !== '/lichess' || asked.length !== 1 || refused) return false;
      refused += 1;
      res.writeHead(429, { 'retry-after': '5' }).end();
      return true;
    });
    const { then } = await fetched(ctx);
    // https://lichess.org/api "Rate limiting": a full minute after a 429, whatever Retry-After says.
    expect(waits).toEqual([60_000]);
    expect(refused).toBe(1);
    expect(asked).toHaveLength(3);
    expect(server.requests.filter((r) => r.path.startsWith('/lichess'))).toHaveLength(4);
    expect(then.status.state).toBe('ok');
    expect(then.findings).toHaveLength(2);
  });

  test('resumable: a run that fails half-way keeps what it fetched, and the next read asks only for the rest', async () => {
    const { ctx, user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_owner');
    addSlavGames(app, user.id);
    let failed = false;
    server.intercept((_req, res, url) => {
      if (url.pathname !== '/lichess' || asked.length !== 1 || failed) return false;
      failed = true;
      res.writeHead(503).end();
      return true;
    });
    const { then } = await fetched(ctx);
    // The first position was stored; the second answered 503 and the run stopped there, saying so (and, until
    // its back-off of a minute has passed, a read says so rather than starting again: issue 44 item 7).
    expect(then.status).toMatchObject({ state: 'error', cached: 1, positions: 3, message: expect.stringMatching(/lichess answered an error.*1 failed try in a row/) });
    expect(runs.outcome(runKeyOf(user.id))).toMatchObject({ state: 'error', message: expect.stringMatching(/lichess answered an error/) });
    app.clock.set(new Date(app.clock.now().getTime() + 60_000));
    expect(peersView(ctx, 'black').status).toMatchObject({ state: 'queued', message: expect.stringMatching(/The last try failed: lichess answered an error/) });
    await runs.settled(runKeyOf(user.id));
    // That read started the rest: 2 more positions, none asked twice once stored.
    expect(peersView(ctx, 'black').status).toMatchObject({ state: 'ok', cached: 3 });
    const fens = asked.map((u) => u.searchParams.get('fen'));
    expect(fens).toHaveLength(3);
    expect(new Set(fens).size).toBe(3);
    expect(server.requests.filter((r) => r.path.startsWith('/lichess'))).toHaveLength(4);
  });

  test('an answer not of the explorer\'s shape is an error that names it; nothing is cached', async () => {
    const { ctx, user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_owner');
    addSlavGames(app, user.id);
    server.route('/lichess', (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"white":"many","moves":[]}'));
    peersView(ctx, 'black');
    await runs.settled(runKeyOf(user.id));
    expect(runs.outcome(runKeyOf(user.id))).toEqual({ state: 'error', message: 'lichess sent data that did not parse: lichess opening explorer: white: Invalid input: expected number, received string' });
    expect(app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM explorer_answers').get()).toEqual({ n: 0 });
  });

  test('without a lichess token: one sentence saying how to add one, nothing fetched', async () => {
    const { ctx, user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'owner');
    addSlavGames(app, user.id);
    const view = peersView(ctx, 'black');
    expect(view.status).toMatchObject({ state: 'no-token', message: NO_TOKEN, positions: 3, cached: 0 });
    expect(NO_TOKEN).toMatch(/connect lichess USER --token/);
    expect(NO_TOKEN).toMatch(/settings page/);
    await tick(20);
    expect(server.requests).toHaveLength(0);
  });

  test('a token the explorer refuses (401) says so, and is not offered again until it changes', async () => {
    const { ctx, user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_revoked');
    addSlavGames(app, user.id);
    const { then } = await fetched(ctx);
    expect(then.status).toMatchObject({ state: 'token-refused', message: TOKEN_REFUSED, cached: 0 });
    expect(TOKEN_REFUSED).toMatch(/refused the lichess token \(HTTP 401\)/);
    expect(asked).toHaveLength(1);
    peersView(ctx, 'black');
    expect(asked).toHaveLength(1);
    // A new token is tried.
    connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_owner');
    const later = await fetched(ctx);
    expect(later.then.status.state).toBe('ok');
    expect(asked).toHaveLength(4);
  });

  test('one request at a time at lichess with a sync running: the explorer waits for the sync', async () => {
    playLichess(server, { lines: fixtureLines('lichess/games_user_export.ndjson') });
    const opened = countOpenRequests(server, 30);
    const { ctx, user } = app.addUser();
    const conn = connectSource(app.deps, user.id, 'siteB', 'RookRanger42', 'lip_owner');
    addSlavGames(app, user.id);
    const synced = syncConnection(app.deps, conn);
    peersView(ctx, 'black');
    const summary = await synced;
    await runs.settled(runKeyOf(user.id));
    expect(summary.error).toBeNull();
    expect(opened.mostOpen()).toBe(1);
    const paths = server.requests.map((r) => r.path.split('?')[0]);
    const firstExplorer = paths.indexOf('/lichess');
    expect(paths.filter((p) => p === '/lichess')).toHaveLength(3);
    // Every sync request came before the explorer's first.
    expect(paths.slice(firstExplorer).every((p) => p === '/lichess')).toBe(true);
    expect(paths.slice(0, firstExplorer)).toContain('/api/games/user/RookRanger42');
  });

  test('the band: chess.com mapped when no lichess rating, a named band, none at all', () => {
    const { ctx, user } = app.addUser();
    addGames(app.deps.store, app.clock, [
      gameRow(user.id, { sourceId: 'c1', provider: 'siteA', colour: 'black', timeClass: 'rapid', userRating: 1190, ratingDelta: 10, sanMoves: 'e4 e5', movesSource: 'pgn' }),
    ]);
    // (1,200 + 929.4548) / 1.3728 = 1,551.2 → 1,551 on lichess's scale, group 1400.
    expect(peersView(ctx, 'black').level).toEqual({ timeClass: 'rapid', ratings: [1400], speeds: ['rapid'], from: "chess.com rapid rating 1200, 1551 on lichess's scale" });
    expect(peersView(ctx, 'black', { band: 2000 }).level).toMatchObject({ ratings: [2000], from: 'named band 2000' });
    expect(() => peersView(ctx, 'black', { band: 1500 })).toThrow(/rating groups/);
    const other = app.addUser();
    addGames(app.deps.store, app.clock, [gameRow(other.user.id, { sourceId: 'u1', provider: 'manual', rated: false, userRating: null, sanMoves: 'e4', movesSource: 'pgn' })]);
    expect(peersView(other.ctx, 'white').status).toMatchObject({ state: 'no-level', message: expect.stringMatching(/name a band/) });
  });

  test('the resource and get_chess_stats read the same findings; another owner sees none of them', async () => {
    const { ctx, user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_owner');
    addSlavGames(app, user.id);
    const uri = 'chess-footprint://openings/black/peers?moves=d4+d5+c4+c6+cxd5';
    const params = peersResource.match(uri)!;
    expect(params).toMatchObject({ colour: 'black', moves: 'd4 d5 c4 c6 cxd5' });
    // A resource's read may answer a promise (tools/resources.ts).
    const text = async (read: ReturnType<typeof peersResource.read>) => {
      const c = await read;
      return 'text' in c[0] ? c[0].text : '';
    };
    const first = JSON.parse(await text(peersResource.read(ctx, params, uri)));
    expect(first.status.state).toBe('queued');
    await runs.settled(runKeyOf(user.id));
    const read = JSON.parse(await text(peersResource.read(ctx, params, uri)));
    expect(read.findings.map((f: { san: string }) => f.san)).toEqual(['c5', 'Qxd5']);
    expect(() => peersResource.match('chess-footprint://openings/red/peers')).toThrow(/white or black/);
    expect(() => peersResource.match('chess-footprint://openings/black/peers?depth=3')).toThrow();

    const stats = tools.find((t) => t.name === 'get_chess_stats')!;
    const out = await stats.handler(ctx, StatsInput.parse({}));
    expect(Stats.safeParse(out).success).toBe(true);
    const block = (out as { atYourLevel: { white: string[]; black: string[] } }).atYourLevel;
    expect(block.black).toEqual([
      'Peers: lichess players rated 1600 and up to the next group, blitz (from lichess blitz rating 1650); 3 of 3 positions compared (2026-11).',
      'After 1.d4 d5 2.c4 c6 3.cxd5, 3...c5 (your 3 games, 33.3%): peers play it in 0.2% of their games and score 36.3%; their best-scoring Bg4 scores 49.6% (7745 games) (scores worse, rare; 0.4 points at stake).',
      'After 1.d4 d5 2.c4 c6 3.cxd5, 3...Qxd5 (your 3 games, 16.7%): peers play it in 4.2% of their games and score 42.2%; their best-scoring Bg4 scores 49.6% (7745 games) (scores worse; 0.2 points at stake).',
    ]);
    // No game as white: no position, nothing to fetch, nothing to say but the band.
    expect(block.white).toEqual(['Peers: lichess players rated 1600 and up to the next group, blitz (from lichess blitz rating 1650); 0 of 0 positions compared (2026-11).']);

    const other = app.addUser();
    const theirs = (await stats.handler(other.ctx, StatsInput.parse({}))) as typeof out & { atYourLevel: typeof block };
    expect(theirs.atYourLevel.black).toEqual([expect.stringMatching(/^No lichess or chess.com blitz rating to place you/)]);
  });
});
