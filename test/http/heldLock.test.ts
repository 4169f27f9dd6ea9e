import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Listening } from '../../src/http/listen.js';
import { storeFile } from '../../src/store/db.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { addGames, gameRow } from '../helpers/games.js';
import { mcpClient, rest, startServer } from '../helpers/server.js';

/**
 * Issue 37, item 9: another process holds the store's write lock (BEGIN IMMEDIATE, held until we let go), and this
 * serving process, rate limits on, still answers its reads: health, REST reads by token, a settings read, an MCP
 * tool call. Their latency is the benchmark's (test/bench/heldLock.ts); here the statuses: before, the limiter's
 * bucket write waited 50 ms for the store's lock and answered 503.
 */
let app: TestApp;
let server: Listening;
let owner: ReturnType<TestApp['addUser']>;
let mcp: Client;

beforeAll(async () => {
  app = makeTestApp({ serving: true, env: { CFP_RATE_LIMITS: 'personal:1000/60' } });
  owner = app.addUser('Owner');
  addGames(app.deps.store, app.clock, [gameRow(owner.user.id, { sourceId: 'g1', colour: 'white', result: 'win', sanMoves: 'e4 e5 Nf3', movesSource: 'pgn' })]);
  server = await startServer(app);
  mcp = await mcpClient(server.url, owner.token);
});
afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await app?.close();
});

function holdLock(file: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'heldLockChild.ts'), file], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (d: Buffer) => (d.toString().includes('held') ? resolve(child) : reject(new Error(d.toString()))));
  });
}

describe("another process holds the store's write lock", () => {
  test('health, REST and settings reads and an MCP tool call answer 200; a write answers 503 and keeps nothing', async () => {
    const child = await holdLock(storeFile(app.dir));
    try {
      // The lock is really held: this connection's own write is refused.
      expect(() => app.deps.store.sqlite.exec('BEGIN IMMEDIATE')).toThrow(/locked/);
      for (let round = 0; round < 3; round += 1) {
        expect((await rest(server.url, '/health')).status).toBe(200);
        const me = await rest(server.url, '/api/v1/me', { token: owner.token });
        expect(me.status).toBe(200);
        expect(me.body.displayName).toBe('Owner');
        const list = await rest(server.url, '/api/v1/me/games', { token: owner.token });
        expect(list.status).toBe(200);
        expect(list.body.total).toBe(1);
        expect((await rest(server.url, '/api/v1/settings/openings/white', { token: owner.token })).status).toBe(200);
        const viaMcp = await mcp.callTool({ name: 'list_games', arguments: {} });
        expect(viaMcp.isError ?? false).toBe(false);
      }
      const write = await rest(server.url, '/api/v1/settings/tokens', { method: 'POST', token: owner.token, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'during' }) });
      expect(write.status).toBe(503);
    } finally {
      child.stdin!.end();
      await new Promise((r) => child.once('exit', r));
    }
    const after = await rest(server.url, '/api/v1/settings/tokens', { method: 'POST', token: owner.token, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'after' }) });
    expect(after.status).toBe(201);
  }, 30_000);
});
