// The smoke test .ci/run runs on the Node version it does not run the whole suite on (22), in a copy of
// the commit installed by `npm ci` on that Node, as its users install it. Plain JavaScript, so nothing but the
// installed package is needed. Steps: the driver this Node loads (printed); `serve --demo` answers; an MCP
// stdio session (the command `claude-config` prints) lists the 29 tools and reads the profile; one engine
// review completes.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'chess-footprint.js');
const data = mkdtempSync(join(tmpdir(), 'cfp-smoke-'));
// A small engine budget and the lite build: this proves the engine runs on this Node, not review quality.
const env = { ...process.env, CFP_ENGINE_BUILD: 'lite', CFP_ENGINE_NODES: '5000', CFP_ENGINE_WORKERS: '1' };
const t0 = Date.now();
const check = (ok, what) => {
  if (!ok) throw new Error(`smoke (${process.version}): ${what}`);
  console.log(`ok ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
};

// The one driver (better-sqlite3 13, Node-API): its prebuilt binary loads on this Node, nothing was compiled.
const { version: driverVersion } = JSON.parse(readFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8'));
const compiled = ['Release', 'Debug'].some((b) => existsSync(join(root, 'node_modules', 'better-sqlite3', 'build', b, 'better_sqlite3.node')));
check(!compiled, `Node ${process.versions.node} uses better-sqlite3 ${driverVersion}'s prebuilt binary (nothing compiled)`);

const serve = spawn(process.execPath, [bin, 'serve', '--demo', '--demo-games', '20', '--port', '0', '--data-dir', data], { env, stdio: ['ignore', 'pipe', 'inherit'] });
try {
  let out = '';
  const url = await new Promise((resolve, reject) => {
    serve.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m && /token: +cfp_/.test(out)) resolve(m[1]);
    });
    serve.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    // unref: a pending timer would hold the process open 120 s after the smoke has passed.
    setTimeout(() => reject(new Error(`serve did not start in 120 s: ${out}`)), 120_000).unref();
  });
  const token = /token: +(cfp_\S+)/.exec(out)[1];
  const health = await fetch(`${url}/health`);
  check(health.status === 200 && (await health.json()).status === 'ok', `serve --demo answers /health on ${url}`);
  const me = await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  check(me.status === 200 && (await me.json()).totals.games === 20, 'the demo token reads /api/v1/me: 20 games');

  const printed = JSON.parse(execFileSync(process.execPath, [bin, 'claude-config', '--data-dir', data], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  const entry = printed.mcpServers['chess-footprint'];
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...env, ...entry.env }, cwd: tmpdir(), stderr: 'inherit' });
  const client = new Client({ name: 'ci-smoke', version: '0.0.0' });
  await client.connect(transport);
  try {
    check((await client.listTools()).tools.length === 29, 'MCP stdio: tools/list has 29 tools');
    const profile = await client.callTool({ name: 'get_profile', arguments: {} });
    check(!profile.isError && profile.structuredContent.totals.games === 20, 'MCP stdio: get_profile');
    const list = await client.callTool({ name: 'list_games', arguments: { provider: 'siteB', sort: 'date-desc', movesMax: 40, reviewed: 'no' } });
    const game = list.structuredContent.games[0];
    check(!list.isError && game !== undefined, 'MCP stdio: list_games finds a lichess game with moves that the engine has not reviewed');
    const started = Date.now();
    let review = await client.callTool({ name: 'request_game_review', arguments: { id: game.id, wait: 45 } });
    while (!review.isError && review.structuredContent.status !== 'complete' && Date.now() - started < 300_000) {
      review = await client.callTool({ name: 'request_game_review', arguments: { id: game.id, wait: 45 } });
    }
    check(!review.isError && review.structuredContent.status === 'complete', `one review completes (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    const detail = await client.callTool({ name: 'get_game', arguments: { id: game.id } });
    const acc = detail.structuredContent.review?.accuracyWhite;
    check(typeof acc === 'number' && acc >= 0 && acc <= 100, `get_game carries the review (white accuracy ${acc})`);
  } finally {
    await client.close();
  }
} finally {
  serve.kill('SIGTERM');
  await new Promise((r) => (serve.exitCode !== null ? r() : serve.once('exit', r)));
  rmSync(data, { recursive: true, force: true });
}
console.log(`smoke passed on Node ${process.version} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
