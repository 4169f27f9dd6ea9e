import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSource } from '../../../src/services/sync/connections.js';
import { syncConnection } from '../../../src/services/sync/index.js';
import { connections, games, ratingPoints } from '../../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { fixture, playEcf } from './sourceFixtures.js';

let server: FixtureServer;
let app: TestApp;
afterEach(async () => {
  await app?.close();
  await server?.close();
});

const standard = () => fixture('ecf/player_games_standard.json');
const rapid = () => fixture('ecf/player_games_rapid.json');
const blitz = () => fixture('ecf/player_games_blitz.json');

async function setup() {
  server = await startFixtureServer();
  app = makeTestApp({ env: { CFP_ECF_URL: server.url }, now: '2025-04-10T09:00:00Z' });
  const { user } = app.addUser('Rowan Ranger');
  const conn = connectSource(app.deps, user.id, 'fed', '998877c');
  const fresh = () => app.deps.store.db.select().from(connections).where(eq(connections.id, conn.id)).get()!;
  const rows = () => app.deps.store.db.select().from(games).where(eq(games.userId, user.id)).orderBy(games.playedAt, games.sourceId).all();
  return { user, fresh, rows };
}

describe('ECF sync', () => {
  it('stores results of every rating type with a natural key, no moves, and the published ratings', async () => {
    const { user, fresh, rows } = await setup();
    playEcf(server, {
      'v2/games/Standard/player/998877/': standard(),
      'v2/games/Rapid/player/998877/': rapid(),
      'v2/games/Blitz/player/998877/': blitz(),
      'v2/ratings/S/998877/2025-04-01': fixture('ecf/player_rating_S_2025-04-01.json'),
      'v2/ratings/S/998877/2025-03-01': '{"original_rating":1884,"revised_rating":1884,"success":true}',
      'v2/ratings/R/998877/2025-04-01': '{"original_rating":1822,"revised_rating":1825,"success":true}',
    });
    const s = await syncConnection(app.deps, fresh());
    expect(s.error).toBeNull();
    expect(s.stored).toBe(10); // 6 standard + 2 rapid + 2 blitz
    const all = rows();
    const okafor = all.find((r) => r.sourceId === 'S:2025-03-30:W:887766:CG00018804')!;
    expect(okafor).toMatchObject({
      provider: 'fed',
      playedAt: '2025-03-30T12:00:00.000Z',
      colour: 'white',
      result: 'win', // score 1
      opponent: 'Okafor, Imani',
      opponentRating: 1802,
      userRating: 1884,
      ratingDelta: 7, // increment 6.9, whole points
      timeClass: 'standard',
      timeControl: null,
      rated: true,
      eco: null,
      opening: null,
      event: 'Fictional Spring Congress 2025',
      movesCount: 0,
      platformAccuracy: null,
      sourceUrl: `${server.url}/v2/new/player.php?ECF_code=998877C`,
      sanMoves: null,
      movesSource: null,
      movesKey: null,
      pgnHash: null,
      clocks: null,
    });
    // score 5 is the ECF's draw code; the second game on 30 March is a separate row.
    expect(all.find((r) => r.sourceId === 'S:2025-03-30:B:776655:CG00018804')).toMatchObject({ result: 'draw', colour: 'black', ratingDelta: 2 });
    expect(all.find((r) => r.sourceId === 'S:2025-02-25:B:554433:LN00006021')).toMatchObject({ result: 'loss', ratingDelta: -5 }); // -5.4
    // String-typed fields and an empty opponent code (the name stands in for it).
    expect(all.find((r) => r.sourceId === 'R:2025-03-08:B:achterberg, nils:RP00004411')).toMatchObject({ result: 'draw', timeClass: 'rapid', opponentRating: 1745, userRating: 1820, ratingDelta: -3 });
    // A double round against the same player on one evening: two rows, told apart by order.
    expect(all.filter((r) => r.timeClass === 'blitz').map((r) => [r.sourceId, r.result])).toEqual([
      ['B:2025-02-15:W:554433:BZ00000777', 'loss'],
      ['B:2025-02-15:W:554433:BZ00000777#2', 'win'],
    ]);
    const pts = app.deps.store.db.select().from(ratingPoints).where(eq(ratingPoints.userId, user.id)).all();
    expect(pts.map((p) => [p.provider, p.series, p.date, p.rating]).sort()).toEqual([
      ['fed', 'rapid', '2025-04-01', 1825], // revised figure
      ['fed', 'standard', '2025-03-01', 1884],
      ['fed', 'standard', '2025-04-01', 1889],
    ]);

    // Re-sync: nothing new, nothing duplicated (ratings recalculated later do not create new rows).
    const recalculated = standard().replace('"player_rating": 1884', '"player_rating": 1886');
    playEcf(server, { 'v2/games/Standard/player/998877/': recalculated, 'v2/games/Rapid/player/998877/': rapid(), 'v2/games/Blitz/player/998877/': blitz() });
    const s2 = await syncConnection(app.deps, fresh());
    expect(s2.stored).toBe(0);
    expect(s2.skipped).toEqual({ duplicate: 10 });
    expect(rows()).toHaveLength(10);
    // The later sync asks for fewer games.
    expect(server.requests.some((r) => r.path.includes('limit/200') && !r.path.includes('limit/2000'))).toBe(true);
  });

  it('an unknown score code fails the whole answer: nothing stored from any rating type', async () => {
    const { fresh, rows } = await setup();
    playEcf(server, {
      'v2/games/Standard/player/998877/': standard(),
      'v2/games/Rapid/player/998877/': rapid().replace('"score": "1"', '"score": "3"'),
      'v2/games/Blitz/player/998877/': blitz(),
    });
    const s = await syncConnection(app.deps, fresh());
    expect(s.error).toBe('ECF sent data that did not parse: ECF Rapid games of 998877C: games[1].score: unknown score code 3');
    expect(fresh().status).toBe('error');
    expect(rows()).toHaveLength(0);
  });
});
