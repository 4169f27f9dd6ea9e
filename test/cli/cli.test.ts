import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, cli, start } from '../helpers/cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cfp-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = /^cfp_[A-Za-z0-9_-]{43}$/;

describe('the CLI contract', { timeout: 120_000 }, () => {
  test('demo prints the new owner token as the last line of stdout; init refuses a second owner', async () => {
    const { stdout } = await cli(['demo', '--data-dir', dir, '--games', '40', '--seed', '3']);
    expect(stdout.trim().split('\n').at(-1)).toMatch(TOKEN);
    await expect(cli(['init', '--name', 'X', '--email', 'x@example.com', '--data-dir', dir])).rejects.toThrow(/already has an owner/);
  });

  test('token create prints the token alone; list shows it; revoke marks it', async () => {
    const { stdout } = await cli(['token', 'create', '--name', 'laptop', '--data-dir', dir]);
    expect(stdout.trim()).toMatch(TOKEN);
    const list = JSON.parse((await cli(['token', 'list', '--json', '--data-dir', dir])).stdout) as Array<{ id: string; name: string; revokedAt: string | null }>;
    const laptop = list.find((t) => t.name === 'laptop')!;
    expect(laptop.revokedAt).toBeNull();
    expect(JSON.stringify(list)).not.toContain(stdout.trim());
    await cli(['token', 'revoke', laptop.id, '--data-dir', dir]);
    const after = JSON.parse((await cli(['token', 'list', '--json', '--data-dir', dir])).stdout) as Array<{ id: string; revokedAt: string | null }>;
    expect(after.find((t) => t.id === laptop.id)!.revokedAt).not.toBeNull();
  });

  test('serve prints "listening on http://HOST:PORT", the MCP URL and a token with --demo, and serves', async () => {
    // A fresh store: --demo seeds it and prints its token once (a restart prints none: firstRun.test.ts).
    const fresh = join(dir, 'serve');
    const { child, stdout } = await start(['serve', '--demo', '--demo-games', '40', '--port', '0', '--data-dir', fresh], /token: +cfp_\S+\n/);
    try {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout())![1];
      expect(stdout()).toContain(`MCP server: ${url}/api/mcp`);
      // The Claude Desktop snippet follows the token line, possibly in a later chunk.
      await expect.poll(() => stdout(), { timeout: 10_000 }).toContain('"mcpServers"');
      const token = /token: +(cfp_\S+)/.exec(stdout())![1];
      const res = await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { totals: { games: number } }).totals.games).toBe(40);
      // The one-time dashboard link: its code, posted once, opens a browser session.
      await expect.poll(() => stdout(), { timeout: 10_000 }).toMatch(/dashboard: +http:\/\/127\.0\.0\.1:\d+\/\?code=/);
      const code = /dashboard: +http:\/\/127\.0\.0\.1:\d+\/\?code=([A-Za-z0-9_-]{43})\s/.exec(stdout())![1];
      const signIn = () => fetch(`${url}/api/v1/settings/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
      const first = await signIn();
      expect(first.status).toBe(200);
      expect(first.headers.get('set-cookie')).toMatch(/^cfp_session=[A-Za-z0-9_-]{43};.*HttpOnly; SameSite=Strict/);
      expect((await signIn()).status).toBe(401);
    } finally {
      child.kill('SIGTERM');
    }
  });

  test('mcp over stdio: the SDK client lists the 29 tools and calls one; stdout carries only protocol', async () => {
    const token = (await cli(['token', 'create', '--name', 'stdio', '--data-dir', dir])).stdout.trim();
    const transport = new StdioClientTransport({
      command: CLI[0],
      args: [...CLI.slice(1), 'mcp', '--data-dir', dir],
      env: { ...(process.env as Record<string, string>), CFP_TOKEN: token },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools).toHaveLength(29);
      const res = await client.callTool({ name: 'get_profile', arguments: {} });
      expect(res.isError).toBeFalsy();
      expect((res.structuredContent as { totals: { games: number } }).totals.games).toBe(40);
      // A stray } and nested braces: an error result naming the fault, not an internal error.
      const errorOf = (r: Awaited<ReturnType<typeof client.callTool>>) => (JSON.parse((r.content as Array<{ text: string }>)[0].text) as { error: string }).error;
      const stray = await client.callTool({ name: 'upload_study_game', arguments: { pgn: '1. e4 } e5' } });
      expect(stray.isError).toBe(true);
      expect(errorOf(stray)).toBe('unparseable PGN: a } near "1. e4 } e5" (line 1) closes no comment');
      const games = await client.callTool({ name: 'list_games', arguments: { provider: 'fed' } });
      const moveless = (games.structuredContent as { games: Array<{ id: string; movesCount: number }> }).games.find((g) => g.movesCount === 0)!;
      const nested = await client.callTool({ name: 'attach_pgn', arguments: { id: moveless.id, pgn: '1. e4 {a {b} c} e5' } });
      expect(nested.isError).toBe(true);
      expect(errorOf(nested)).toBe('unparseable PGN: a { inside a comment near "1. e4 {a {b} c} e5" (line 1); PGN comments do not nest');
    } finally {
      await client.close();
    }
  });
});
