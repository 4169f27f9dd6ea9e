import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSource } from '../../../src/services/sync/connections.js';
import { listConnections, syncConnection } from '../../../src/services/sync/index.js';
import { games } from '../../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { fixtureLines } from './sourceFixtures.js';

let server: FixtureServer;
let app: TestApp;
afterEach(async () => {
  await app?.close();
  await server?.close();
});

const N = 300;

describe('a sync killed with SIGKILL', () => {
  it('leaves a consistent store, and the next sync completes it without duplicates or gaps', async () => {
    server = await startFixtureServer();
    const templates = fixtureLines('lichess/games_user_export.ndjson').map((l) => JSON.parse(l));
    const all = Array.from({ length: N }, (_, i) => ({ ...templates[i % 5], id: `k${String(i).padStart(7, '0')}`, createdAt: 1_700_000_000_000 + i * 60_000 }));
    server.route('prefix:/api/games/user/', async (_req, res, url) => {
      const since = Number(url.searchParams.get('since') ?? 0);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      // Slowly, like lichess's throttled stream: the child is killed part-way.
      for (const g of all.filter((x) => x.createdAt >= since)) {
        if (res.destroyed) return;
        res.write(JSON.stringify(g) + '\n');
        await new Promise((r) => setTimeout(r, 4));
      }
      res.end();
    });
    server.route('prefix:/api/user/', (_q, res, url) => void res.writeHead(200).end(url.pathname.endsWith('/rating-history') ? '[]' : '{"perfs":{}}'));

    app = makeTestApp({ env: { CFP_LICHESS_URL: server.url } });
    const { user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'RookRanger42');
    const count = () => app.deps.store.db.select({ id: games.id }).from(games).where(eq(games.userId, user.id)).all().length;

    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'killChild.ts'), app.dir, server.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_c, sig) => r(sig)));
    for (let i = 0; i < 2400 && count() < 40; i += 1) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const afterKill = count();
    expect(afterKill, stderr).toBeGreaterThanOrEqual(40);
    expect(afterKill).toBeLessThan(N);

    // What the killed run committed is whole: the cursor covers exactly the stored games, a prefix of the export.
    const [conn] = listConnections(app.deps, user.id, 'siteB');
    expect(conn.status).toBe('syncing'); // the killed process never got to set it back
    const since = JSON.parse(conn.cursor).since as number;
    const stored = app.deps.store.db.select({ sourceId: games.sourceId }).from(games).where(eq(games.userId, user.id)).all().map((g) => g.sourceId).sort();
    expect(stored).toEqual(all.filter((g) => g.createdAt <= since).map((g) => g.id));

    const s = await syncConnection(app.deps, conn);
    expect(s.ok).toBe(true);
    const ids = app.deps.store.db.select({ sourceId: games.sourceId }).from(games).where(eq(games.userId, user.id)).all().map((g) => g.sourceId).sort();
    expect(ids).toEqual(all.map((g) => g.id)); // every game once: no gap, no duplicate
    expect(listConnections(app.deps, user.id, 'siteB')[0].status).toBe('ok');
  });
});
