import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, cli } from '../helpers/cli.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';

/**
 * Issues 38 and 43: preparation reachable over stdio alone, with the entry `claude-config` prints, by a client
 * that never reads a resource (as Claude Desktop): it asks for the prepare_for_opponent prompt for a lichess
 * player nobody scouted, which starts the scout, and asks again until the prompt carries their games and
 * opening tree. Lichess is a local fake serving test/fixtures/prep/rivalx.ndjson.
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
  test('prepare_for_opponent for a player never scouted: the prompt scouts them, and asked again carries their tree; no resources/read', async () => {
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
      // Claude Desktop's model never reads a resource (issue 43): the client below only asks for the prompt,
      // again and again as the prompt tells, and every resources/read it might send is counted.
      let reads = 0;
      const send = client.request.bind(client);
      client.request = ((req: { method: string }, ...rest: unknown[]) => {
        if (req.method === 'resources/read') reads += 1;
        return (send as (...a: unknown[]) => unknown)(req, ...rest);
      }) as typeof client.request;
      const ask = () => client.getPrompt({ name: 'prepare_for_opponent', arguments: { provider: 'siteB', username: 'RivalX', colour: 'black' } });
      const attached = (p: Awaited<ReturnType<typeof ask>>) =>
        new Map(
          p.messages.flatMap((m) => (m.content.type === 'resource' && 'text' in m.content.resource ? [[m.content.resource.uri, JSON.parse(m.content.resource.text)] as const] : [])),
        );
      const textOf = (p: Awaited<ReturnType<typeof ask>>) => (p.messages[0].content as { text: string }).text;
      const uri = 'chess-footprint://players/siteB/RivalX';

      // The first pick starts the scout (no tool, no REST call) and says so, with how far it has got.
      let prompt = await ask();
      let text = textOf(prompt);
      const first = attached(prompt).get(uri);
      expect(first.scout).toMatchObject({ provider: 'siteB', username: 'rivalx', bounds: { maxGames: 500, months: 12 } });
      if (first.scout.state !== 'ok') {
        expect(['queued', 'fetching']).toContain(first.scout.state);
        expect(text).toContain('RivalX had never been scouted: picking this prompt started fetching their lichess games');
        expect(text).toContain('pick this prompt again in a minute');
      }
      expect(text).not.toMatch(/POST |PUT |\/api\/v1|[Rr]ead (the resource|chess-footprint)/);

      // Picked again until it holds their games.
      for (let i = 0; i < 100 && attached(prompt).get(uri).scout.state !== 'ok'; i += 1) {
        expect(attached(prompt).get(uri).scout.state).not.toBe('error');
        await new Promise((r) => setTimeout(r, 100));
        prompt = await ask();
      }
      text = textOf(prompt);
      const data = attached(prompt);
      const report = data.get(uri);
      expect(report.scout).toMatchObject({ state: 'ok', games: 6 });
      // One fetch: the picks while it ran joined it.
      expect(lichess.requests.filter((r) => r.path.startsWith('/api/games/user/rivalx'))).toHaveLength(1);
      // Their results as White (G1 win, G2 loss, G3 draw, G4 win) and as Black (G5 win, G6 loss), counted by hand.
      expect(report.byColour).toEqual({
        white: { games: 4, win: 2, draw: 1, loss: 1, score: 62.5 },
        black: { games: 2, win: 1, draw: 0, loss: 1, score: 50 },
      });

      // I have black, so their white tree is carried, cut as the text says. By hand from the fixture: from the
      // start e4 (G1 G2 G3) and d4 (G4 alone, not followed); after 1. e4, c5 (G2 G3) and e5 (G1, not followed);
      // after 1. e4 c5, Nf3 (G2) and Nc3 (G3), one game each: three positions, nothing with 2+ games cut.
      expect([...data.keys()].filter((k) => k.includes('/openings/'))).toEqual([`${uri}/openings/white`, `${uri}/openings/white?moves=e4`, `${uri}/openings/white?moves=e4+c5`]);
      const tree = data.get(`${uri}/openings/white?moves=e4`);
      expect(tree.games).toBe(3);
      expect(tree.nextMoves.map((m: { san: string; games: number; share: number }) => [m.san, m.games, m.share])).toEqual([
        ['c5', 2, 66.7],
        ['e5', 1, 33.3],
      ]);
      expect(data.get(`${uri}/openings/white`).nextMoves.map((m: { san: string; games: number }) => [m.san, m.games])).toEqual([
        ['e4', 3],
        ['d4', 1],
      ]);
      expect(text).toContain(`Their white tree (${uri}/openings/white) is attached as 3 positions`);
      expect(text).toContain('nothing with 2+ games was cut');
      expect(text).not.toContain('pick this prompt again');
      // The owner has no games: no meeting points, said so; no black repertoire: only the player can declare one, on the page.
      expect(text).toContain('meetingPoints.white is empty');
      expect(text).toMatch(/I have not declared a black repertoire, so chess-footprint:\/\/repertoire\/black\/deviations has nothing to attach \(no black repertoire declared; ask the player to declare one on the dashboard's Prep page, http:\/\/[^ ]+\/prep /);
      expect(text).not.toMatch(/POST |PUT |\/api\/v1|[Rr]ead (the resource|chess-footprint)/);
      expect(reads).toBe(0);
    } finally {
      await client.close();
    }
  });
});
