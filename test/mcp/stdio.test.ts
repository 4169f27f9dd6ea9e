import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Messages } from '../../src/errors.js';
import { CLI, cli } from '../helpers/cli.js';

let dir: string;
let token: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cfp-stdio-'));
  token = (await cli(['init', '--name', 'Owner', '--email', 'owner@example.test', '--data-dir', dir])).stdout.trim().split('\n').at(-1)!;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function stdioClient(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: CLI[0],
    args: [...CLI.slice(1), 'mcp', '--data-dir', dir],
    env: { ...(process.env as Record<string, string>), CFP_TOKEN: '', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

describe('MCP over stdio: prompts, resources and the auth message', { timeout: 120_000 }, () => {
  test('prompts and resource templates list and render; a personal resource reads with CFP_TOKEN', async () => {
    const client = await stdioClient({ CFP_TOKEN: token });
    try {
      expect((await client.listPrompts()).prompts).toHaveLength(7);
      const p = await client.getPrompt({ name: 'quiz_me', arguments: { count: '3' } });
      expect((p.messages[0].content as { text: string }).text).toContain('Quiz me on 3 positions from my own games.');
      // review_game resolves the game it is given with the owner's token; this owner has none yet.
      await expect(client.getPrompt({ name: 'review_game', arguments: { gameId: 'latest' } })).rejects.toThrow('no game for "latest": you have no games yet; call list_games for ids');
      expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(10);
      const tree = JSON.parse(((await client.readResource({ uri: 'chess-footprint://openings/black' })).contents[0] as { text: string }).text);
      expect(tree).toMatchObject({ colour: 'black', games: 0, score: null, nextMoves: [] });
    } finally {
      await client.close();
    }
  });

  test('without a token, a personal tool and a personal resource say to set CFP_TOKEN, not to send a header', async () => {
    const client = await stdioClient({});
    try {
      const res = await client.callTool({ name: 'get_profile', arguments: {} });
      expect(res.isError).toBe(true);
      const body = JSON.parse((res.content as Array<{ text: string }>)[0].text) as { error: string };
      expect(body.error).toBe(Messages.unauthorizedStdio);
      expect(body.error).toContain('CFP_TOKEN');
      expect(body.error).not.toContain('Authorization');
      await expect(client.readResource({ uri: 'chess-footprint://reports/latest' })).rejects.toThrow(/CFP_TOKEN/);
      // Public tools still work.
      expect((await client.callTool({ name: 'list_library_games', arguments: {} })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
