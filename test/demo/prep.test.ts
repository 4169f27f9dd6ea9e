import { Chess } from 'chess.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PlayerReport, Repertoire } from '../../schemas/prep.js';
import { seedDemo } from '../../src/demo/index.js';
import { DEMO_SCOUT } from '../../src/demo/prep.js';
import { loadRepertoire, ownScout, playerReport, readPlayer, scoutRuns } from '../../src/services/prep/index.js';
import type { PersonalCtx } from '../../src/context.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';

// The demo's preparation (issue 39): a made-up scouted player and a repertoire of each colour, made
// through the prep services, marked demo, never fetched, the same for the same seed.

// Stands in for the sites: a demo must make no request to them.
let source: FixtureServer;
beforeAll(async () => {
  source = await startFixtureServer();
});
afterAll(() => source.close());

const demoApp = (): TestApp => makeTestApp({ now: '2026-11-21T12:00:00Z', env: { CFP_CHESSCOM_URL: source.url, CFP_LICHESS_URL: source.url, CFP_ECF_URL: source.url } });

/** The scouted player's stored games, oldest first, as plain rows. */
function scoutGames(app: TestApp) {
  return app.deps.store.sqlite.prepare('SELECT source_id, played_at, colour, result, opponent, rating, time_class, san_moves FROM scout_games ORDER BY played_at, source_id').all() as Array<{ played_at: string; san_moves: string; colour: string; result: string; rating: number }>;
}

describe('the demo’s preparation', () => {
  test('a made-up player, marked demo: the report reads it, and neither a scout nor an agent’s read fetches it', async () => {
    const app = demoApp();
    try {
      const { user } = await seedDemo(app.deps, { games: 40, seed: 4, log: () => {} });
      const ctx = { ...app.deps, user, caller: { surface: 'rest' as const, key: 'test' } } as unknown as PersonalCtx;
      source.requests.length = 0;
      const report = PlayerReport.parse(await playerReport(ctx, ownScout(ctx, DEMO_SCOUT.provider, DEMO_SCOUT.username)));
      expect(report.scout).toMatchObject({ provider: 'siteB', username: 'demo-rival', state: 'demo', games: 140 });
      expect(report.scout.message).toMatch(/made-up player, not a real account, never fetched/);
      expect(report.byColour.white.games + report.byColour.black.games).toBe(140);
      // Scouting it again, or an agent reading it, starts no fetch: the name could be a stranger's.
      expect(scoutRuns(ctx).start(user.id, 'siteB', 'demo-rival').state).toBe('demo');
      expect((await readPlayer(ctx, 'siteB', 'demo-rival')).scout.state).toBe('demo');
      await scoutRuns(ctx).settled(user.id, 'siteB', 'demo-rival');
      expect(source.requests).toEqual([]);
      for (const colour of ['white', 'black'] as const) {
        const rep = Repertoire.parse(loadRepertoire(ctx, colour).repertoire);
        expect(rep.source).toBe('demo');
        expect(rep.lines).toBe(colour === 'white' ? 6 : 7);
      }
    } finally {
      await app.close();
    }
  });

  test('its games are legal, inside the six-month window, and the same for the same seed', async () => {
    const [a, b] = [demoApp(), demoApp()];
    try {
      await seedDemo(a.deps, { games: 30, seed: 9, log: () => {} });
      await seedDemo(b.deps, { games: 30, seed: 9, log: () => {} });
      const games = scoutGames(a);
      expect(games).toEqual(scoutGames(b));
      const from = Date.parse('2026-05-21T12:00:00Z');
      for (const g of games) {
        expect(Date.parse(g.played_at)).toBeGreaterThanOrEqual(from);
        expect(Date.parse(g.played_at)).toBeLessThanOrEqual(Date.parse('2026-11-21T12:00:00Z'));
        // chess.js replays every move (an illegal one throws).
        const chess = new Chess();
        for (const san of g.san_moves.split(' ')) chess.move(san);
        expect(g.rating).toBeGreaterThan(1500);
        expect(g.rating).toBeLessThan(2100);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});
