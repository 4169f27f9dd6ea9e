import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Profile } from '../../schemas/profile.js';
import { createAppDeps } from '../../src/app.js';
import { markDemoConnections, DEMO_ACCOUNTS } from '../../src/demo/connections.js';
import { seedDemo } from '../../src/demo/index.js';
import { syncUser } from '../../src/services/sync/index.js';
import { startSyncScheduler } from '../../src/services/sync/syncScheduler.js';
import { connections } from '../../src/store/schema/index.js';
import { getProfile } from '../../tools/profile/get_profile.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/** Stands in for chess.com, lichess and the ECF: counts every request (a demo must make none). */
let hits: string[] = [];
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function demoApp(): TestApp {
  return makeTestApp({ env: { CFP_CHESSCOM_URL: base, CFP_LICHESS_URL: base, CFP_ECF_URL: base } });
}

describe('the demo stays local', () => {
  test('its connections are marked demo: get_profile says so (not error), and no sync touches a source', async () => {
    const app = demoApp();
    try {
      const { user, token } = await seedDemo(app.deps, { games: 20, log: () => {} });
      hits = [];
      const summaries = await syncUser(app.deps, user.id);
      expect(summaries).toHaveLength(3);
      for (const s of summaries) expect(s).toMatchObject({ ok: false, fetched: 0, error: expect.stringMatching(/^demo data: a made-up account, never synced/) });
      const scheduler = startSyncScheduler(app.deps, { firstRunDelayMs: 0 });
      await new Promise((r) => setTimeout(r, 200));
      scheduler.stop();
      expect(hits).toEqual([]);

      const profile = Profile.parse((await app.call(getProfile, {}, token)).body);
      expect(profile.connections.map((c) => [c.provider, c.account, c.status])).toEqual([
        ['fed', DEMO_ACCOUNTS.fed, 'demo'],
        ['siteA', DEMO_ACCOUNTS.siteA, 'demo'],
        ['siteB', DEMO_ACCOUNTS.siteB, 'demo'],
      ]);
      expect(profile.connections.every((c) => /made-up account/.test(c.statusMessage ?? ''))).toBe(true);
    } finally {
      await app.close();
    }
  });

  test('a demo store from an older version (its made-up accounts marked ok) is marked at start; a real account is not', async () => {
    const app = demoApp();
    try {
      const { user } = await seedDemo(app.deps, { games: 10, log: () => {} });
      const rows = app.deps.store.db.select().from(connections).where(eq(connections.userId, user.id)).all();
      app.deps.store.db.update(connections).set({ status: 'ok', statusMessage: null }).where(eq(connections.userId, user.id)).run();
      // The owner pointed lichess at a real account: that one syncs as usual.
      app.deps.store.db.update(connections).set({ externalId: 'RealPlayer' }).where(eq(connections.id, rows.find((r) => r.provider === 'siteB')!.id)).run();
      const errors = console.error;
      const lines: string[] = [];
      console.error = (l: string) => void lines.push(l);
      try {
        createAppDeps(app.config, { clock: app.clock, store: app.deps.store });
      } finally {
        console.error = errors;
      }
      expect(lines).toContain('marked 2 demo connection(s) as demo: they hold made-up accounts and are never synced');
      const after = app.deps.store.db.select().from(connections).where(eq(connections.userId, user.id)).all();
      expect(Object.fromEntries(after.map((c) => [c.provider, c.status]))).toEqual({ siteA: 'demo', siteB: 'ok', fed: 'demo' });
      expect(markDemoConnections(app.deps.store)).toBe(0);
    } finally {
      await app.close();
    }
  });
});
