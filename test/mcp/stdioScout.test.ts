import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAppDeps } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { AppDeps, PersonalCtx } from '../../src/context.js';
import { userById } from '../../src/services/accounts/accounts.js';
import { readPlayer, SCOUT_INTERRUPTED } from '../../src/services/prep/index.js';
import { SCOUT_ELSEWHERE } from '../../src/services/prep/scoutLease.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { CLI, cli } from '../helpers/cli.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';
import { killAndReap } from '../helpers/processes.js';

/**
 * Issue 44 item 7, with real processes: `mcp` over stdio (the CLI as built for this run, a child process) and this
 * process's app (as `serve` would run it) on one data folder, against a local lichess whose export counts its
 * requests and holds the first one until the test lets it go. The fixture's dates move with today's, as in
 * stdioPrep.test.ts, so the 12-month window holds the same six games whatever the day.
 */
const served = readFileSync(join(import.meta.dirname, '../fixtures/prep/rivalx.ndjson'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { createdAt: number });
const shift = Date.now() - Date.parse('2026-11-28T00:00:00Z');
const URI = 'chess-footprint://players/siteB/RivalX';

describe('a scout across processes: mcp over stdio and another process on one data folder', { timeout: 120_000 }, () => {
  let dir: string;
  let lichess: FixtureServer;
  let exports: number;
  let letFirstGo: () => void;
  let client: Client;
  let transport: StdioClientTransport;
  let here: AppDeps;
  let ctx: PersonalCtx;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cfp-stdio-scout-'));
    exports = 0;
    const firstHeld = new Promise<void>((r) => (letFirstGo = r));
    lichess = await startFixtureServer();
    lichess.route('prefix:/api/games/user/', async (_req, res, url) => {
      exports += 1;
      if (exports === 1) await firstHeld;
      const since = Number(url.searchParams.get('since') ?? 0);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const g of served) if (g.createdAt + shift >= since) res.write(`${JSON.stringify({ ...g, createdAt: g.createdAt + shift })}\n`);
      res.end();
    });
    await cli(['init', '--name', 'Owner', '--email', 'owner@example.test', '--data-dir', dir]);
    const entry = (JSON.parse((await cli(['claude-config', '--data-dir', dir])).stdout) as { mcpServers: { 'chess-footprint': { env: { CFP_TOKEN: string } } } }).mcpServers['chess-footprint'];
    transport = new StdioClientTransport({
      command: CLI[0],
      args: [...CLI.slice(1), 'mcp', '--data-dir', dir],
      env: { PATH: process.env.PATH ?? '', ...entry.env, CFP_LICHESS_URL: lichess.url },
      stderr: 'pipe',
    });
    client = new Client({ name: 'stdio-scout-test', version: '0.0.0' });
    await client.connect(transport);
    // This process: its own store connection, runners and site turns, the real clock.
    here = createAppDeps(loadConfig({ dataDir: dir }, { CFP_LICHESS_URL: lichess.url }), { store: openStore(storeFile(dir)) });
    const { id } = here.store.sqlite.prepare('SELECT id FROM users').get() as { id: string };
    ctx = { ...here, user: userById(here.store, id)!, caller: { surface: 'rest', key: 'test' } };
  }, 60_000);

  afterEach(async () => {
    letFirstGo();
    await client.close().catch(() => undefined);
    await here.runtime.close();
    here.limiter.close();
    here.store.close();
    await lichess.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The stdio process reads the player (its scout starts) and its export request is in flight. */
  async function scoutedOverStdio(): Promise<void> {
    const read = await client.readResource({ uri: URI });
    expect(JSON.parse((read.contents[0] as { text: string }).text).scout.state).toMatch(/queued|fetching/);
    for (let i = 0; i < 100 && exports < 1; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(exports).toBe(1);
  }

  async function until<T>(what: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
    let v = await what();
    for (let i = 0; i < 100 && !done(v); i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      v = await what();
    }
    return v;
  }

  test('while the stdio process fetches, this one reports that fetch and asks nothing; then reads its games', async () => {
    await scoutedOverStdio();
    const meanwhile = (await readPlayer(ctx, 'siteB', 'RivalX')).scout;
    expect(meanwhile).toMatchObject({ state: 'fetching', message: SCOUT_ELSEWHERE, games: 0 });
    letFirstGo();
    const after = await until(async () => (await readPlayer(ctx, 'siteB', 'RivalX')).scout, (s) => s.state === 'ok');
    expect(after).toMatchObject({ state: 'ok', games: 6, message: null });
    expect(exports).toBe(1);
    expect(here.store.sqlite.prepare('SELECT count(*) AS n FROM scout_games').get()).toEqual({ n: 6 });
  });

  test('the stdio process killed (SIGKILL) mid-fetch: the next read here resumes the scout at once and completes it', async () => {
    await scoutedOverStdio();
    expect(await killAndReap(transport.pid!)).toBe(true);
    // Its claim would hold for up to 30 s more, but its process is gone: not "being fetched", and not stuck (issue 44 item 11).
    const resumed = (await readPlayer(ctx, 'siteB', 'RivalX')).scout;
    expect(resumed.state).toBe('queued');
    expect(resumed.message).not.toBe(SCOUT_ELSEWHERE);
    expect(resumed.message).not.toBe(SCOUT_INTERRUPTED);
    const after = await until(async () => (await readPlayer(ctx, 'siteB', 'RivalX')).scout, (s) => s.state === 'ok');
    expect(after).toMatchObject({ state: 'ok', games: 6 });
    expect(exports).toBe(2);
    expect(here.store.sqlite.prepare('SELECT count(*) AS n FROM scout_lease').get()).toEqual({ n: 0 });
  });
});
