import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, cli } from '../helpers/cli.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';

/**
 * Issue 38: preparation reachable by an agent over stdio alone, with the entry `claude-config` prints.
 * The agent asks for the prepare_for_opponent prompt for a lichess player nobody scouted, then reads
 * the player resource until it holds their games (the read starts the scout: no tool, no REST call),
 * and their opening tree. Lichess is a local fake serving test/fixtures/prep/rivalx.ndjson.
 */
const served = readFileSync(join(import.meta.dirname, '../fixtures/prep/rivalx.ndjson'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { createdAt: number });
// The fixture was written on 2026-11-28; its dates move with today's, so the scout's window (the last
// 12 months) holds the same six games on any day the suite runs (the 2025-10-01 game stays outside).
const shift = Date.now() - Date.parse('2026-11-28T00:00:00Z');

let dir: string;
let elsewhere: string;
let lichess: FixtureServer;
let entry: { command: string; args: string[]; env: { CFP_TOKEN: string } };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cfp-stdio-prep-'));
  elsewhere = mkdtempSync(join(tmpdir(), 'cfp-elsewhere-'));
  lichess = await startFixtureServer();
  lichess.route('prefix:/api/games/user/', (_req, res, url) => {
    const since = Number(url.searchParams.get('since') ?? 0);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const g of served) if (g.createdAt + shift >= since) res.write(`${JSON.stringify({ ...g, createdAt: g.createdAt + shift })}\n`);
    res.end();
  });
  await cli(['init', '--name', 'Owner', '--email', 'owner@example.test', '--data-dir', dir]);
  const printed = await cli(['claude-config', '--data-dir', dir]);
  entry = (JSON.parse(printed.stdout) as { mcpServers: { 'chess-footprint': typeof entry } }).mcpServers['chess-footprint'];
  // claude-config also prints the Claude Code command for the same entry.
  expect(printed.stderr).toContain(`Claude Code: claude mcp add --transport stdio --scope user --env CFP_TOKEN=${entry.env.CFP_TOKEN} chess-footprint -- `);
}, 60_000);

afterAll(async () => {
  await lichess?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('preparation over stdio, as Claude Desktop runs it', { timeout: 120_000 }, () => {
  test('prepare_for_opponent for a player never scouted: reading the player resource scouts them, then their tree is there', async () => {
    expect(entry.args[0]).toMatch(/[\\/]bin[\\/]chess-footprint\.js$/);
    expect(entry.args.slice(1)).toEqual(['mcp', '--data-dir', dir]);
    // The printed entry, with the CLI as built for this test run in place of bin/ (which runs the installed build),
    // started from another folder as Claude Desktop does; the only addition is where lichess is.
    const transport = new StdioClientTransport({
      command: CLI[0],
      args: [...CLI.slice(1), ...entry.args.slice(1)],
      cwd: elsewhere,
      env: { PATH: process.env.PATH ?? '', ...entry.env, CFP_LICHESS_URL: lichess.url },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-prep-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const prompt = await client.getPrompt({ name: 'prepare_for_opponent', arguments: { provider: 'siteB', username: 'RivalX', colour: 'black' } });
      const text = (prompt.messages[0].content as { text: string }).text;
      expect(text).toContain('Read the resource chess-footprint://players/siteB/RivalX');
      expect(text).toContain('that read starts the scout itself (no tool needed');
      expect(text).not.toMatch(/POST |PUT |\/api\/v1/);
      expect(lichess.requests).toHaveLength(0);

      // The agent follows it: the first read starts the scout; it reads again until it is ok.
      const uri = 'chess-footprint://players/siteB/RivalX';
      const read = async () => JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text);
      const first = await read();
      expect(['queued', 'fetching', 'ok']).toContain(first.scout.state);
      expect(first.scout).toMatchObject({ provider: 'siteB', username: 'rivalx', bounds: { maxGames: 500, months: 12 } });
      let report = first;
      for (let i = 0; i < 100 && report.scout.state !== 'ok'; i += 1) {
        expect(report.scout.state).not.toBe('error');
        await new Promise((r) => setTimeout(r, 100));
        report = await read();
      }
      expect(report.scout).toMatchObject({ state: 'ok', games: 6 });
      // One fetch: the reads while it ran joined it.
      expect(lichess.requests.filter((r) => r.path.startsWith('/api/games/user/rivalx'))).toHaveLength(1);
      // Their results as White (G1 win, G2 loss, G3 draw, G4 win) and as Black (G5 win, G6 loss), counted by hand.
      expect(report.byColour).toEqual({
        white: { games: 4, win: 2, draw: 1, loss: 1, score: 62.5 },
        black: { games: 2, win: 1, draw: 0, loss: 1, score: 50 },
      });

      // The tree the prompt reads next: as White after 1. e4, 1...c5 in G2 and G3, 1...e5 in G1.
      const tree = JSON.parse(((await client.readResource({ uri: `${uri}/openings/white?moves=e4` })).contents[0] as { text: string }).text);
      expect(tree.games).toBe(3);
      expect(tree.nextMoves.map((m: { san: string; games: number; share: number }) => [m.san, m.games, m.share])).toEqual([
        ['c5', 2, 66.7],
        ['e5', 1, 33.3],
      ]);

      // What only the player can do is asked of the player, with the page: never a REST call.
      const missing = (await client.readResource({ uri: 'chess-footprint://repertoire/black/deviations' }).catch((e: Error) => e)) as Error & { code: number };
      expect(missing.code).toBe(-32002);
      expect(missing.message).toMatch(/^MCP error -32002: no black repertoire declared; ask the player to declare one on the dashboard's Prep page, http:\/\/[^ ]+\/prep \(/);
      expect(missing.message).not.toMatch(/PUT |\/api\/v1/);
    } finally {
      await client.close();
    }
  });
});
