import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shippedReviews } from '../../src/demo/shippedReviews.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { CLI, cli, start } from '../helpers/cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cfp-first-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI and resolves with its exit code and both streams, failing or not. */
async function run(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(CLI[0], [...CLI.slice(1), ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const tokenList = async (data: string) => JSON.parse((await cli(['token', 'list', '--json', '--data-dir', data])).stdout) as Array<{ id: string; name: string; revokedAt: string | null; lastUsedAt: string | null }>;

describe('a first run', { timeout: 300_000 }, () => {
  test('serve --demo: the first start prints the token; a restart mints none and says how to get one', async () => {
    const data = join(dir, 'restart');
    const first = await start(['serve', '--demo', '--demo-games', '10', '--port', '0', '--data-dir', data], /"mcpServers"[\s\S]*\n}\n/);
    let token: string;
    try {
      token = /token: +(cfp_\S+)/.exec(first.stdout())![1];
      const url = /listening on (\S+)/.exec(first.stdout())![1];
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
      await new Promise((r) => first.child.once('exit', r));
    }
    const before = await tokenList(data);
    const second = await start(['serve', '--demo', '--demo-games', '10', '--port', '0', '--data-dir', data], /"mcpServers"[\s\S]*\n}\n/);
    try {
      const out = second.stdout();
      expect(out).not.toMatch(/cfp_[A-Za-z0-9_-]{43}/);
      expect(out).toContain('the token printed when this store was created still works');
      expect(out).toContain(`token create --name NAME --data-dir ${data}`);
      // The Claude Desktop snippet of a restart has the placeholder, never a new token.
      // As this installation runs it (a clone: node and the absolute script), with this store's folder.
      const bin = join(import.meta.dirname, '..', '..', 'bin', 'chess-footprint.js');
      expect(out).toContain(`"CFP_TOKEN": "<a token from \`node ${bin} token create --name claude-desktop --data-dir ${data}\`>"`);
      expect(out).toContain(`Claude Code: claude mcp add --transport stdio --scope user --env 'CFP_TOKEN=<a token from`);
      const url = /listening on (\S+)/.exec(out)![1];
      const me = await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
    expect(await tokenList(data)).toHaveLength(before.length);
  });

  test("npm start's first answer (serve --demo on an empty data dir) already has reviewed games", async () => {
    const data = join(dir, 'npm-start');
    // package.json's start script: serve --demo (500 games, seed 1), here on a free port.
    const first = await start(['serve', '--demo', '--port', '0', '--data-dir', data], /"mcpServers"[\s\S]*\n}\n/, { CFP_RATE_LIMITS: 'off' });
    try {
      const token = /token: +(cfp_\S+)/.exec(first.stdout())![1];
      const url = /listening on (\S+)/.exec(first.stdout())![1];
      const auth = { authorization: `Bearer ${token}` };
      const list = (await (await fetch(`${url}/api/v1/me/games`, { headers: auth })).json()) as { games: Array<{ id: string }> };
      let reviewed = 0;
      for (const g of list.games) {
        const a = (await (await fetch(`${url}/api/v1/me/games/${g.id}/analysis`, { headers: auth })).json()) as { analysed: boolean; plies?: Array<{ classification: string }> };
        if (a.analysed) reviewed += 1;
      }
      // Every game whose review the package ships (data/demo/reviews.json.gz) answers analysed at once.
      expect(reviewed).toBeGreaterThanOrEqual(shippedReviews().size);
      expect(reviewed).toBeGreaterThanOrEqual(1);
    } finally {
      first.child.kill('SIGTERM');
      await new Promise((r) => first.child.once('exit', r));
    }
  });

  test('claude-config prints absolute node, script and data folder with the token; --write merges, keeps other servers, backs up', async () => {
    const data = join(dir, 'claude');
    await cli(['demo', '--data-dir', data, '--games', '10']);
    const printed = JSON.parse((await cli(['claude-config', '--data-dir', data])).stdout) as { mcpServers: Record<string, { command: string; args: string[]; env: { CFP_TOKEN: string } }> };
    const entry = printed.mcpServers['chess-footprint'];
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual([join(import.meta.dirname, '..', '..', 'bin', 'chess-footprint.js'), 'mcp', '--data-dir', data]);
    expect(entry.env.CFP_TOKEN).toMatch(/^cfp_[A-Za-z0-9_-]{43}$/);

    const file = join(dir, 'Claude', 'claude_desktop_config.json');
    mkdirSync(join(dir, 'Claude'));
    const other = { globalShortcut: 'Ctrl+Space', mcpServers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] } } };
    writeFileSync(file, JSON.stringify(other));
    const written = await run(['claude-config', '--write', '--config-file', file, '--data-dir', data]);
    expect(written.code).toBe(0);
    const merged = JSON.parse(readFileSync(file, 'utf8'));
    expect(merged.globalShortcut).toBe('Ctrl+Space');
    expect(merged.mcpServers.files).toEqual(other.mcpServers.files);
    expect(merged.mcpServers['chess-footprint'].args).toEqual(entry.args);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const backups = readdirSync(join(dir, 'Claude')).filter((f) => f.startsWith('claude_desktop_config.json.bak-'));
    expect(backups).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, 'Claude', backups[0]), 'utf8'))).toEqual(other);
    expect(written.stderr).toContain(`added the chess-footprint server in ${file}`);

    // No run revoked anything (issue 45 item 1): the printed token still works beside the written one.
    const claudeTokens = (await tokenList(data)).filter((t) => t.name === 'claude-desktop');
    expect(claudeTokens).toHaveLength(2);
    expect(claudeTokens.filter((t) => t.revokedAt === null)).toHaveLength(2);

    // A file that is not JSON is left as it is.
    writeFileSync(file, '{ not json');
    const refused = await run(['claude-config', '--write', '--config-file', file, '--data-dir', data]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not valid JSON; fix or move it/);
    expect(readFileSync(file, 'utf8')).toBe('{ not json');

    // A token of another store is refused, naming the store.
    const foreign = await run(['claude-config', '--token', 'cfp_' + 'x'.repeat(43), '--data-dir', data]);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain(`is not a live token of demo@example.com in the store at ${data}`);
  });

  test('claude-config: printing never changes a token; --write keeps the live token in the file; --rotate alone revokes, and says so (issue 45 item 1)', async () => {
    const data = join(dir, 'claude-tokens');
    await cli(['demo', '--data-dir', data, '--games', '10']);
    const file = join(dir, 'claude-tokens-config', 'claude_desktop_config.json');
    const entryToken = (stdout: string) => (JSON.parse(stdout) as { mcpServers: Record<string, { env: { CFP_TOKEN: string } }> }).mcpServers['chess-footprint'].env.CFP_TOKEN;
    const live = async () => (await tokenList(data)).filter((t) => t.name === 'claude-desktop' && t.revokedAt === null).map((t) => t.id);
    const works = async (token: string) => (await run(['token', 'list', '--data-dir', data])).code === 0 && (await run(['claude-config', '--token', token, '--data-dir', data, '--config-file', file])).code === 0;

    // The first print issues the claude-desktop token (none was live), revoking nothing.
    const first = await run(['claude-config', '--data-dir', data, '--config-file', file]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('issued a token named claude-desktop for demo@example.com (nothing revoked)');
    const printed = entryToken(first.stdout);
    expect(printed).toMatch(/^cfp_[A-Za-z0-9_-]{43}$/);
    const afterFirst = await live();
    expect(afterFirst).toHaveLength(1);

    // Printing again changes no token: the placeholder, and how to get a token into it.
    const again = await run(['claude-config', '--data-dir', data, '--config-file', file]);
    expect(again.code).toBe(0);
    expect(entryToken(again.stdout)).toMatch(/^<a token from `.* token create --name claude-desktop --data-dir /);
    expect(again.stderr).toMatch(/a claude-desktop token is live already .* placeholder: pass --token .* or --rotate /);
    expect(await live()).toEqual(afterFirst);
    expect(await works(printed)).toBe(true);

    // --write puts a token in Claude Desktop's file without revoking the printed one; a second --write keeps the file's.
    const written = await run(['claude-config', '--write', '--data-dir', data, '--config-file', file]);
    expect(written.code).toBe(0);
    const inFile = entryToken(readFileSync(file, 'utf8'));
    expect(inFile).not.toBe(printed);
    expect(written.stderr).toContain('the earlier one stays live');
    expect(await live()).toHaveLength(2);
    const rewritten = await run(['claude-config', '--write', '--data-dir', data, '--config-file', file]);
    expect(rewritten.stderr).toContain(`reusing the live token already in ${file}`);
    expect(entryToken(readFileSync(file, 'utf8'))).toBe(inFile);
    expect(await live()).toHaveLength(2);
    // Printing with the file there prints the token it holds.
    expect(entryToken((await run(['claude-config', '--data-dir', data, '--config-file', file])).stdout)).toBe(inFile);

    // --rotate is the one way to revoke: a new token, both earlier ones revoked, and it says so.
    const rotated = await run(['claude-config', '--rotate', '--data-dir', data, '--config-file', file]);
    expect(rotated.code).toBe(0);
    expect(rotated.stderr).toContain('rotated: issued a new token named claude-desktop for demo@example.com and revoked the previous 2');
    const fresh = entryToken(rotated.stdout);
    expect(await live()).toHaveLength(1);
    expect(await works(fresh)).toBe(true);
    expect(await works(inFile)).toBe(false);
  });

  test('mcp on a folder with no store creates none: exit 3 naming the folder and the command that makes one', async () => {
    const missing = join(dir, 'no-store-here');
    const res = await run(['mcp', '--data-dir', missing], { CFP_TOKEN: 'cfp_' + 'y'.repeat(43) });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`error: no store in ${missing}: create one with`);
    expect(res.stdout).toBe('');
    expect(existsSync(missing)).toBe(false);
  });

  test('mcp on a store with no account, or with a token it does not know, says so on stderr naming the data folder', async () => {
    // A store with no account: what `serve` leaves on an empty folder, made here in-process.
    const empty = join(dir, 'empty');
    openStore(storeFile(empty)).close();
    for (const [data, token, expected] of [
      [empty, 'cfp_' + 'y'.repeat(43), `the store at ${empty} has no account (is --data-dir right?`],
      [join(dir, 'claude'), 'cfp_' + 'y'.repeat(43), `CFP_TOKEN is not a live token of the store at ${join(dir, 'claude')}`],
    ] as const) {
      const transport = new StdioClientTransport({ command: CLI[0], args: [...CLI.slice(1), 'mcp', '--data-dir', data], env: { ...(process.env as Record<string, string>), CFP_TOKEN: token }, stderr: 'pipe' });
      let err = '';
      transport.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const client = new Client({ name: 'first-run', version: '0.0.0' });
      await client.connect(transport);
      try {
        // docs/api.md: every tool is listed still; each personal one then fails with a clear message.
        expect((await client.listTools()).tools).toHaveLength(29);
        const res = await client.callTool({ name: 'get_profile', arguments: {} });
        expect(res.isError).toBe(true);
        expect(err).toContain(expected);
      } finally {
        await client.close();
      }
    }
  });

  test('a command that reads a store creates none: no store is exit 3 naming the folder and the command that makes one', async () => {
    const home = join(dir, 'home');
    mkdirSync(home);
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'chess-footprint.js');
    // Without --data-dir (the default ~/.chess-footprint, HOME pointed at an empty folder), and with a relative one from another folder.
    const env = { HOME: home };
    const byDefault = await run(['claude-config'], env);
    expect(byDefault.code).toBe(3);
    expect(byDefault.stderr).toContain(`error: no store in ${join(home, '.chess-footprint')}: create one with \`node ${bin} init --name NAME --email EMAIL --data-dir ${join(home, '.chess-footprint')}\``);
    const relative = await run(['claude-config', '--write', '--data-dir', 'somewhere/.data'], env);
    expect(relative.code).toBe(3);
    expect(relative.stderr).toContain(`no store in ${join(process.cwd(), 'somewhere', '.data')}`);
    for (const args of [['token', 'list'], ['sync'], ['report', 'generate']]) expect((await run([...args, '--data-dir', join(home, 'x')])).code, args.join(' ')).toBe(3);
    expect(readdirSync(home)).toEqual([]);
    expect(readdirSync(process.cwd())).not.toContain('somewhere');
  });

  test('usage errors are exit 2 (commander included); sync on a demo store skips the made-up connections and exits 0', async () => {
    const unknown = await run(['serve', '--prot', '47102']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown option '--prot'");
    expect((await run(['nonsense'])).code).toBe(2);
    expect((await run(['--version'])).code).toBe(0);

    const demo = await run(['sync', '--data-dir', join(dir, 'claude')]);
    expect(demo.code).toBe(0);
    expect(demo.stdout.trim()).toMatch(/^skipped 3 demo connections \((ECF|chess\.com|lichess) .+\): made-up accounts, never synced$/);
    expect(demo.stdout + demo.stderr).not.toContain('FAILED');
  });

  test('human errors with documented exit codes: missing file 2, busy port 4, unusable data folder 3', async () => {
    const data = join(dir, 'claude');
    const missing = await run(['import', join(dir, 'missing.pgn'), '--data-dir', data]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(`error: no such file or folder: ${join(dir, 'missing.pgn')}`);

    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      const taken = await run(['serve', '--port', String(port), '--data-dir', data]);
      expect(taken.code).toBe(4);
      expect(taken.stderr).toContain(`error: port ${port} on 127.0.0.1 is already in use`);
      expect(taken.stderr).toContain('choose another with --port N');
    } finally {
      busy.close();
    }

    const aFile = join(dir, 'not-a-folder');
    writeFileSync(aFile, 'x');
    const notDir = await run(['token', 'list', '--data-dir', join(aFile, 'data')]);
    expect(notDir.code).toBe(3);
    expect(notDir.stderr).toContain(`error: cannot use the data folder ${join(aFile, 'data')}:`);

    const junk = join(dir, 'junk');
    mkdirSync(junk);
    writeFileSync(join(junk, 'chess-footprint.sqlite'), 'this is not a database, just text long enough to fill a header page');
    const notStore = await run(['token', 'list', '--data-dir', junk]);
    expect(notStore.code).toBe(3);
    expect(notStore.stderr).toContain('is not a readable SQLite store');
  });
});
