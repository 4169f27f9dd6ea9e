import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Profile } from '../../schemas/profile.js';
import { copyCheckout } from '../helpers/clone.js';

/**
 * The package as it runs for a user: a copy of the checkout, built with the project's own build
 * (tsc), then driven through bin/chess-footprint.js, the file Claude Desktop and `npm install -g` run.
 */
const tmp = mkdtempSync(join(tmpdir(), 'cfp-installed-'));
const pkg = join(tmp, 'chess-footprint');
const bin = join(pkg, 'bin', 'chess-footprint.js');

beforeAll(() => {
  copyCheckout(pkg);
  execFileSync(process.execPath, [join(pkg, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: pkg, stdio: 'pipe' });
}, 600_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the built package', { timeout: 240_000 }, () => {
  test('npm pack ships what runs: no source maps, a LICENSE, the migrations; no tests', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: pkg, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'bin/chess-footprint.js', 'dist/src/cli/index.js', 'src/store/migrations/0000_init.sql', 'src/store/migrations/meta/_journal.json']));
    expect(files.filter((f) => f.startsWith('test/') || (f.startsWith('src/') && !f.startsWith('src/store/migrations/')))).toEqual([]);
    // drizzle's snapshots serve only migration generation (npm run db:generate), never a running store.
    expect(files.filter((f) => /^src\/store\/migrations\/meta\/.*_snapshot\.json$/.test(f))).toEqual([]);
    // No shipped file points at a source map or a source file that is not shipped.
    for (const f of files.filter((p) => p.endsWith('.js'))) expect(readFileSync(join(pkg, f), 'utf8'), f).not.toContain('sourceMappingURL');
    expect(readFileSync(join(pkg, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} chess-footprint contributors/);
  });

  test('Claude Desktop: exactly the printed configuration, started from another directory, serves get_profile', async () => {
    const data = join(tmp, 'data');
    execFileSync(process.execPath, [bin, 'demo', '--data-dir', data, '--games', '12'], { stdio: 'pipe' });
    const printed = execFileSync(process.execPath, [bin, 'claude-config', '--data-dir', data], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const entry = (JSON.parse(printed) as { mcpServers: { 'chess-footprint': { command: string; args: string[]; env: Record<string, string> } } }).mcpServers['chess-footprint'];
    expect(entry.args[0]).toBe(bin);

    // Claude Desktop starts servers from its own directory: anywhere but the checkout or the data folder.
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere);
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: entry.env, cwd: elsewhere, stderr: 'pipe' });
    let stderr = '';
    transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'claude-desktop-stand-in', version: '0.0.0' });
    await client.connect(transport);
    try {
      const res = await client.callTool({ name: 'get_profile', arguments: {} });
      expect(res.isError, stderr).toBeFalsy();
      const profile = Profile.parse(res.structuredContent);
      expect(profile.totals.games).toBe(12);
      expect(profile.email).toBe('demo@example.com');
      expect(profile.connections.map((c) => c.status)).toEqual(['demo', 'demo', 'demo']);
      // A working store and token: nothing to warn about.
      expect(stderr).not.toContain('only the public tools will work');
    } finally {
      await client.close();
    }
  });
});
