import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AppDeps } from '../../../src/context.js';
import { readPlayer, ScoutRuns, setScoutRuns } from '../../../src/services/prep/index.js';
import { DEFAULT_MAX_GAMES, DEFAULT_MONTHS, ensureScout } from '../../../src/services/prep/scoutStore.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { secondProcess } from '../../helpers/secondProcess.js';

// Issue 44 item 7: `serve` and `mcp` over stdio on one data folder each run their own scout runner, so both could
// fetch the same player at once. Two apps on one store file, each with its own store connection, runner and site
// turns (as the two processes have), against a local lichess export that counts what it is asked.
const FIX = join(import.meta.dirname, '../../fixtures/prep');
const SERVED = readFileSync(join(FIX, 'rivalx.ndjson'), 'utf8').split('\n').filter((l) => l.trim());

describe('one scout fetch of a player at a time per store, across processes', () => {
  let server: FixtureServer;
  let app: TestApp;
  let second: AppDeps;
  let closeSecond: () => Promise<void>;
  let runsA: ScoutRuns;
  let runsB: ScoutRuns;
  /** Export requests for rivalx, and how many were open at once. */
  let exports: number;
  let open: number;
  let mostOpen: number;

  beforeEach(async () => {
    exports = 0;
    open = 0;
    mostOpen = 0;
    server = await startFixtureServer();
    // Each export answers after 300 ms, so the second process reads while the first one's fetch is in flight.
    server.route('prefix:/api/games/user/', async (_req, res) => {
      exports += 1;
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      await new Promise((r) => setTimeout(r, 300));
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const l of SERVED) res.write(l + '\n');
      res.end();
      open -= 1;
    });
    // Three scouts a day: each charge shows in what is left (a refresh 13 hours later finds the bucket full again).
    app = makeTestApp({ env: { CFP_LICHESS_URL: server.url, CFP_RATE_LIMITS: 'scout:3/86400' } });
    ({ deps: second, close: closeSecond } = secondProcess(app));
    runsA = new ScoutRuns(app.deps, { sleep: async () => {} });
    runsB = new ScoutRuns(second, { sleep: async () => {} });
    setScoutRuns(app.deps, runsA);
    setScoutRuns(second, runsB);
  });
  afterEach(async () => {
    runsA.stop();
    runsB.stop();
    await closeSecond();
    await server.close();
    await app.close();
  });

  const storedGames = () => (app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM scout_games').get() as { n: number }).n;
  /** How many more scouts the owner's bucket allows now (takes them all, so call it last). */
  const unitsLeft = (userId: string) => {
    let n = 0;
    for (; n < 10; n += 1) {
      try {
        app.deps.limiter.take('scout', userId);
      } catch {
        break;
      }
    }
    return n;
  };

  test('the second process reading the player while the first fetches it asks nothing and stores nothing twice; one charge', async () => {
    const { ctx, user } = app.addUser();
    const inB = { ...ctx, ...second, user };
    expect((await readPlayer(ctx, 'siteB', 'RivalX')).scout.state).toBe('queued');
    // The first process's request is in flight.
    await new Promise((r) => setTimeout(r, 100));
    expect(exports).toBe(1);
    const meanwhile = (await readPlayer(inB, 'siteB', 'rivalx')).scout;
    expect(meanwhile).toMatchObject({ state: 'fetching', games: 0 });
    expect(meanwhile.message).toMatch(/another process/);
    await runsA.settled(user.id, 'siteB', 'rivalx');
    await runsB.settled(user.id, 'siteB', 'rivalx');
    expect(exports).toBe(1);
    // The fixture's games in the 12-month window (test/services/prep/scout.test.ts: six of its seven).
    expect(storedGames()).toBe(6);
    // Once the first is done, the second reads its games as any reader does.
    expect((await readPlayer(inB, 'siteB', 'rivalx')).scout).toMatchObject({ state: 'ok', games: 6, message: null });
    expect(exports).toBe(1);
    // One of three units spent.
    expect(unitsLeft(user.id)).toBe(2);
  });

  test('a refresh read by both processes at once is fetched and charged once', async () => {
    const { ctx, user } = app.addUser();
    const inB = { ...ctx, ...second, user };
    readPlayer(ctx, 'siteB', 'rivalx');
    await runsA.settled(user.id, 'siteB', 'rivalx');
    expect(exports).toBe(1);
    // Past the refresh age (SCOUT_REFRESH_MS, 12 hours): each read would fetch what is new. The bucket is full again
    // (2 left + 13/24 × 3 refilled, at most 3).
    app.clock.set(new Date('2026-11-21T01:00:00Z'));
    expect((await readPlayer(ctx, 'siteB', 'rivalx')).scout.state).toBe('queued');
    await new Promise((r) => setTimeout(r, 100));
    expect((await readPlayer(inB, 'siteB', 'rivalx')).scout).toMatchObject({ state: 'fetching', games: 6 });
    await runsA.settled(user.id, 'siteB', 'rivalx');
    await runsB.settled(user.id, 'siteB', 'rivalx');
    expect(exports).toBe(2);
    expect(mostOpen).toBe(1);
    expect(storedGames()).toBe(6);
    // The refresh charged one unit of the full three.
    expect(unitsLeft(user.id)).toBe(2);
  });

  /** A scout a process started (its row, never fetched, charged) whose claim `holder` holds until `until`. */
  function startedBy(userId: string, holder: string, until: number): void {
    app.deps.limiter.take('scout', userId);
    const row = ensureScout(app.deps.store, app.clock, userId, 'siteB', 'rivalx', { maxGames: DEFAULT_MAX_GAMES, months: DEFAULT_MONTHS });
    app.deps.store.sqlite.prepare('INSERT INTO scout_lease (scout_id, holder, expires_at) VALUES (?, ?, ?)').run(row.id, holder, until);
  }
  const leases = () => (app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM scout_lease').get() as { n: number }).n;
  /** The second process's read resumes the dead holder's scout: one request, its games stored, no claim left, no second charge. */
  async function resumedBySecond(inB: Parameters<typeof readPlayer>[0]): Promise<void> {
    expect((await readPlayer(inB, 'siteB', 'rivalx')).scout).toMatchObject({ state: 'queued', message: null });
    await runsB.settled(inB.user.id, 'siteB', 'rivalx');
    expect(exports).toBe(1);
    expect(storedGames()).toBe(6);
    expect(leases()).toBe(0);
    // Only the first process's charge: the resume is the same work.
    expect(unitsLeft(inB.user.id)).toBe(2);
  }

  test("a holder on another machine that went quiet: its claim runs out, then the next read resumes the scout, uncharged", async () => {
    const { ctx, user } = app.addUser();
    const inB = { ...ctx, ...second, user };
    // Its claim was last renewed long enough ago that it runs out 400 ms from now; nothing releases it.
    startedBy(user.id, 'another-machine:4242:deadbeef', Date.now() + 400);
    expect((await readPlayer(inB, 'siteB', 'rivalx')).scout).toMatchObject({ state: 'fetching', games: 0 });
    expect(exports).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    await resumedBySecond(inB);
  });

  test('a process of this machine killed with SIGKILL: its claim is free at once, and the next read resumes the scout', async () => {
    const { ctx, user } = app.addUser();
    const inB = { ...ctx, ...second, user };
    // A real process, killed: its pid names no process any more.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    startedBy(user.id, `${hostname()}:${child.pid}:deadbeef`, Date.now() + 30_000);
    await resumedBySecond(inB);
  });

  test('a process that stops (a server shut down, a stdio client gone) lets its claim go: the other resumes at once', async () => {
    const { ctx, user } = app.addUser();
    const inB = { ...ctx, ...second, user };
    readPlayer(ctx, 'siteB', 'rivalx');
    await new Promise((r) => setTimeout(r, 100));
    expect(leases()).toBe(1);
    runsA.stop();
    expect(leases()).toBe(0);
    expect((await readPlayer(inB, 'siteB', 'rivalx')).scout.state).toBe('queued');
    await runsB.settled(user.id, 'siteB', 'rivalx');
    await runsA.settled(user.id, 'siteB', 'rivalx');
    // The first request was cut off by the stop; the second process's is the one stored.
    expect(exports).toBe(2);
    expect(storedGames()).toBe(6);
    expect((await readPlayer(ctx, 'siteB', 'rivalx')).scout).toMatchObject({ state: 'ok', games: 6 });
    expect(unitsLeft(user.id)).toBe(2);
  });
});
