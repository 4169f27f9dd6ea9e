import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StatsInput } from '../../../schemas/aggregates.js';
import { chessStats } from '../../../src/services/stats/chessStats.js';
import { connectSource } from '../../../src/services/sync/connections.js';
import { startSyncScheduler } from '../../../src/services/sync/syncScheduler.js';
import { connections, games } from '../../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { fixtureLines, playLichess } from './sourceFixtures.js';

let server: FixtureServer;
let app: TestApp;
afterEach(async () => {
  await app?.close();
  await server?.close();
});

async function until(cond: () => boolean) {
  for (let i = 0; i < 400 && !cond(); i += 1) await new Promise((r) => setTimeout(r, 25));
  expect(cond()).toBe(true);
}

describe('sync scheduler', () => {
  it('syncs every connection in the background, again on the interval, and stops', async () => {
    server = await startFixtureServer();
    const { exportRequests } = playLichess(server, { lines: fixtureLines('lichess/games_user_export.ndjson') });
    app = makeTestApp({ env: { CFP_LICHESS_URL: server.url } });
    const { user } = app.addUser();
    const conn = connectSource(app.deps, user.id, 'siteB', 'RookRanger42');
    const sched = startSyncScheduler(app.deps, { firstRunDelayMs: 0, intervalMs: 120 });
    await until(() => exportRequests.length >= 2);
    sched.stop();
    const rows = app.deps.store.db.select().from(games).where(eq(games.userId, user.id)).all();
    expect(rows).toHaveLength(5);
    expect(app.deps.store.db.select().from(connections).where(eq(connections.id, conn.id)).get()!.status).not.toBe('error');
    // The second run was incremental.
    expect(exportRequests[1].searchParams.get('since')).toBe('1743296020204');
    const seen = exportRequests.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(exportRequests.length).toBeLessThanOrEqual(seen + 1); // at most the run that was in flight
  });

  it("a run that stores games computes the owner's first-asked aggregates before any read asks", async () => {
    server = await startFixtureServer();
    playLichess(server, { lines: fixtureLines('lichess/games_user_export.ndjson') });
    app = makeTestApp({ env: { CFP_LICHESS_URL: server.url } });
    const { user } = app.addUser();
    const other = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'RookRanger42');
    let runs = 0;
    const sched = startSyncScheduler(app.deps, { firstRunDelayMs: 0, intervalMs: 60_000, onRunEnd: () => (runs += 1) });
    await until(() => runs >= 1);
    sched.stop();
    // A read served from memory prepares no statement; a computed one prepares several.
    const prepare = vi.spyOn(app.deps.store.sqlite, 'prepare');
    const statsOf = (u: typeof user) => chessStats({ ...app.deps, user: u, caller: { surface: 'rest', key: 't' } }, StatsInput.parse({ range: 'all' }));
    expect(statsOf(user).games).toBe(5);
    expect(prepare).not.toHaveBeenCalled();
    // The control: an owner no sync touched computes on their first read.
    expect(statsOf(other.user).games).toBe(0);
    expect(prepare.mock.calls.length).toBeGreaterThan(0);
    prepare.mockRestore();
  });
});
