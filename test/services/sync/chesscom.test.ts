import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSource } from '../../../src/services/sync/connections.js';
import { syncConnection } from '../../../src/services/sync/index.js';
import { connections, games, ratingPoints, users } from '../../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { fixture, playChesscom } from './sourceFixtures.js';

let server: FixtureServer;
let app: TestApp;
afterEach(async () => {
  await app?.close();
  await server?.close();
});

const monthRequests = () =>
  server.requests.filter((r) => /\/games\/\d{4}\/\d{2}$/.test(r.path)).map((r) => `${r.path.slice(-7)} ${r.headers['if-none-match'] ? 'revalidate' : 'get'}`);

async function setup(now: string) {
  server = await startFixtureServer();
  app = makeTestApp({ env: { CFP_CHESSCOM_URL: server.url, CFP_USER_AGENT: 'cfp-test (contact: t@example.test)' }, now });
  const { user } = app.addUser('Rowan Ranger');
  const conn = connectSource(app.deps, user.id, 'siteA', 'PawnStormPilot');
  const months = { '2025/01': fixture('chesscom/games_2025_01.json'), '2025/02': fixture('chesscom/games_2025_02.json'), '2025/03': fixture('chesscom/games_2025_03.json') };
  playChesscom(server, months);
  const fresh = () => app.deps.store.db.select().from(connections).where(eq(connections.id, conn.id)).get()!;
  return { user, months, fresh };
}

const rowsOf = (userId: string) => app.deps.store.db.select().from(games).where(eq(games.userId, userId)).orderBy(games.playedAt).all();

describe('chess.com sync', () => {
  it('stores every month serially, field by field, with before-game ratings derived from the previous game of the class', async () => {
    const { user, fresh } = await setup('2025-03-26T12:00:00Z');
    const s = await syncConnection(app.deps, fresh());
    expect(s.error).toBeNull();
    expect(s.fetched).toBe(8);
    expect(s.stored).toBe(7);
    expect(s.skipped).toEqual({ variant: 1 }); // the chess960 game of February
    expect(server.requests.every((r) => r.headers['user-agent'] === 'cfp-test (contact: t@example.test)')).toBe(true);
    expect(app.deps.store.db.select().from(users).where(eq(users.id, user.id)).get()!.usernameSiteA).toBe('PawnStormPilot');

    const rows = rowsOf(user.id);
    const byId = Object.fromEntries(rows.map((r) => [r.sourceId, r]));
    // Game 1 of March: started 2025-02-28 23:58:10 UTC, ended in March (so it sits in the March archive).
    // rating 1563 is after the game; the previous rated blitz game (February) ended at 1550 → before 1550, delta +13.
    expect(byId['live/131245907731']).toMatchObject({
      provider: 'siteA',
      playedAt: '2025-02-28T23:58:10.000Z',
      colour: 'white',
      result: 'win',
      opponent: 'GambitGoose',
      opponentRating: 1540,
      userRating: 1550,
      ratingDelta: 13,
      timeClass: 'blitz',
      timeControl: '180+2',
      rated: true,
      eco: 'C54',
      opening: 'Italian Game: Classical Variation, Greco Gambit, Greco Variation', // 8...Nxc3 in the openings table
      event: null,
      movesCount: 20,
      platformAccuracy: 87.41,
      sourceUrl: 'https://www.chess.com/game/live/131245907731',
      movesSource: 'pgn',
    });
    const clocks = JSON.parse(byId['live/131245907731'].clocks!) as number[];
    expect(clocks.slice(0, 4)).toEqual([182, 182, 174, 177.2]); // 0:03:02, 0:03:02, 0:02:54, 0:02:57.2
    // Rapid: January ended at 1600, this win shows 1612 → before 1600, +12; black's accuracy 83.55.
    expect(byId['live/131598213046']).toMatchObject({ colour: 'black', result: 'win', userRating: 1600, ratingDelta: 12, opponent: 'Castle_Crusher', opponentRating: 1498, platformAccuracy: 83.55, timeClass: 'rapid', movesCount: 22 });
    // Bullet loss on time: no earlier bullet game → before-game rating unknown; no accuracies → null.
    expect(byId['live/131944507210']).toMatchObject({ result: 'loss', userRating: null, ratingDelta: null, platformAccuracy: null, timeClass: 'bullet', timeControl: '60' });
    // Daily: played from start_time 1741597200 = 2025-03-10T09:00:00Z.
    expect(byId['daily/771204388']).toMatchObject({ playedAt: '2025-03-10T09:00:00.000Z', timeClass: 'daily', timeControl: '1/86400', result: 'win', colour: 'black', movesCount: 8, sourceUrl: 'https://www.chess.com/game/daily/771204388' });
    // Repetition on both sides → draw; the blitz chain continues from game 1 (1563) → before 1563, delta 0.
    expect(byId['live/132810655921']).toMatchObject({ result: 'draw', userRating: 1563, ratingDelta: 0, platformAccuracy: 90.12 });

    // Tactics: peak and low only.
    const pts = app.deps.store.db.select().from(ratingPoints).where(eq(ratingPoints.userId, user.id)).all();
    expect(pts.map((p) => [p.series, p.date, p.rating]).sort()).toEqual([
      ['tactics-highest', '2025-02-01', 1987], // 1738431211 s
      ['tactics-lowest', '2023-11-04', 812], // 1699102840 s
    ]);
  });

  it('revalidates unsettled months (304 costs nothing), skips settled ones without a request, and picks up a new game', async () => {
    const { user, months, fresh } = await setup('2025-03-02T12:00:00Z');
    await syncConnection(app.deps, fresh());
    expect(monthRequests()).toEqual(['2025/01 get', '2025/02 get', '2025/03 get']);
    server.requests.length = 0;

    // Next day: January settled (checked > 2 days after it ended); February and March are revalidated → 304.
    app.clock.set('2025-03-03T12:00:00Z');
    const s2 = await syncConnection(app.deps, fresh());
    expect(monthRequests()).toEqual(['2025/02 revalidate', '2025/03 revalidate']);
    expect(s2.monthsUnchanged).toBe(3);
    expect(s2.fetched).toBe(0);
    server.requests.length = 0;

    // March grows by one game (a copy of the draw with a new url and a later end).
    const march = JSON.parse(months['2025/03']);
    const extra = { ...march.games[4], url: 'https://www.chess.com/game/live/132900000001', end_time: 1743000000 };
    extra.white = { ...extra.white, rating: 1570 };
    months['2025/03'] = JSON.stringify({ games: [...march.games, extra] });
    app.clock.set('2025-04-05T12:00:00Z');
    const s3 = await syncConnection(app.deps, fresh());
    // February was settled by the revalidation of 3 March (more than 2 days after it ended).
    expect(monthRequests()).toEqual(['2025/03 revalidate']);
    expect(s3.stored).toBe(1);
    expect(s3.skipped).toEqual({ duplicate: 5 });
    // Its before-game rating is the previous blitz game's 1563 (carried from the month's start): 1570 − 1563 = +7.
    expect(rowsOf(user.id).find((r) => r.sourceId === 'live/132900000001')).toMatchObject({ userRating: 1563, ratingDelta: 7 });
    expect(rowsOf(user.id)).toHaveLength(8);
  });

  it('a malformed month fails loudly and stores none of its games; earlier months stay', async () => {
    const { user, months, fresh } = await setup('2025-03-26T12:00:00Z');
    const march = JSON.parse(months['2025/03']);
    delete march.games[2].white.result;
    months['2025/03'] = JSON.stringify(march);
    const s = await syncConnection(app.deps, fresh());
    expect(s.ok).toBe(false);
    expect(s.error).toBe('chess.com sent data that did not parse: chess.com archive 2025/03: games[2]: white.result: Invalid input: expected string, received undefined');
    expect(fresh()).toMatchObject({ status: 'error', statusMessage: s.error, lastSyncedAt: null });
    expect(rowsOf(user.id).map((r) => r.sourceId)).toEqual(['live/129000000001', 'live/130000000001']);
    // The next sync, once the month is fixed, completes it.
    months['2025/03'] = fixture('chesscom/games_2025_03.json');
    const s2 = await syncConnection(app.deps, fresh());
    expect(s2.ok).toBe(true);
    expect(rowsOf(user.id)).toHaveLength(7);
  });

  it('an unknown player is an error naming the 404', async () => {
    server = await startFixtureServer();
    app = makeTestApp({ env: { CFP_CHESSCOM_URL: server.url } });
    const { user } = app.addUser();
    const conn = connectSource(app.deps, user.id, 'siteA', 'nobody_here');
    const s = await syncConnection(app.deps, conn);
    expect(s.error).toBe('chess.com does not know this account (HTTP 404): chess.com archives of nobody_here: HTTP 404');
  });
});
