import { afterEach, describe, expect, test } from 'vitest';
import { inSiteTurn } from '../../../src/services/common/index.js';
import { ScoutRuns, setScoutRuns } from '../../../src/services/prep/index.js';
import { connectSource } from '../../../src/services/sync/connections.js';
import { syncConnection } from '../../../src/services/sync/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { countOpenRequests, startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { fixtureLines, playLichess } from '../sync/sourceFixtures.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('one request at a time per site', () => {
  test('turns at one site run one after another in the order asked; a failed turn does not stop the next', async () => {
    const app = {};
    const log: string[] = [];
    const work = (name: string, ms: number, fail = false) => async () => {
      log.push(`${name} start`);
      await tick(ms);
      log.push(`${name} end`);
      if (fail) throw new Error(`${name} failed`);
      return name;
    };
    const a = inSiteTurn(app, 'siteB', work('a', 30, true));
    const b = inSiteTurn(app, 'siteB', work('b', 5));
    await expect(a).rejects.toThrow('a failed');
    await expect(b).resolves.toBe('b');
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  test('two sites, or two apps, do not wait on each other', async () => {
    const log: string[] = [];
    const work = (name: string) => async () => {
      log.push(`${name} start`);
      await tick(20);
      log.push(`${name} end`);
    };
    const app = {};
    await Promise.all([inSiteTurn(app, 'siteA', work('chess.com')), inSiteTurn(app, 'siteB', work('lichess')), inSiteTurn({}, 'siteB', work('other app'))]);
    expect(log.slice(0, 3).sort()).toEqual(['chess.com start', 'lichess start', 'other app start']);
  });
});

describe("the sync and the scout of one site share its turn", () => {
  let app: TestApp;
  let server: FixtureServer;
  afterEach(async () => {
    await app?.close();
    await server?.close();
  });

  test('a lichess sync and a lichess scout started together never have two requests open at lichess', async () => {
    server = await startFixtureServer();
    playLichess(server, { lines: fixtureLines('lichess/games_user_export.ndjson') });
    // Each request is held 30 ms before it is answered, so two fetches running side by side would overlap.
    const opened = countOpenRequests(server, 30);
    app = makeTestApp({ env: { CFP_LICHESS_URL: server.url } });
    const { user } = app.addUser('Rowan Ranger');
    const conn = connectSource(app.deps, user.id, 'siteB', 'RookRanger42');
    const runs = new ScoutRuns(app.deps, { sleep: async () => {} });
    setScoutRuns(app.deps, runs);
    try {
      const synced = syncConnection(app.deps, conn);
      runs.start(user.id, 'siteB', 'RivalX');
      const summary = await synced;
      await runs.settled(user.id, 'siteB', 'rivalx');
      expect(summary.error).toBeNull();
      // The sync asks lichess for the export, the rating history, the profile (and no puzzles without a token); the scout for one export.
      const paths = server.requests.map((r) => r.path.split('?')[0]);
      expect(paths.filter((p) => p === '/api/games/user/rivalx')).toHaveLength(1);
      expect(paths.filter((p) => p === '/api/games/user/RookRanger42')).toHaveLength(1);
      expect(opened.mostOpen()).toBe(1);
      // The scout asked after the sync's last request, not between them.
      expect(paths.at(-1)).toBe('/api/games/user/rivalx');
    } finally {
      runs.stop();
    }
  });
});
