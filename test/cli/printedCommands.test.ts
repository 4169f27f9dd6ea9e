import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, start } from '../helpers/cli.js';

/**
 * Issue 45 item 2: every command the CLI prints works as printed on the store it came from. Each
 * command is taken out of the output (the text between backticks that starts with the CLI as this
 * clone runs it), split as a POSIX shell splits it, and run from a folder that is not the store's,
 * with HOME pointed at an empty folder: a command that lost its `--data-dir` would look in
 * ~/.chess-footprint there, find no store and exit 3.
 */

let dir: string;
let store: string;
let cwd: string;
let home: string;
const bin = join(import.meta.dirname, '..', '..', 'bin', 'chess-footprint.js');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cfp-printed-'));
  // A space in the store's path: the printed command must quote it.
  store = join(dir, 'my store');
  cwd = join(dir, 'elsewhere');
  home = join(dir, 'home');
  for (const d of [cwd, home]) mkdirSync(d);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}) => {
  const e: Record<string, string> = { ...(process.env as Record<string, string>), HOME: home, ...extra };
  delete e.CFP_DATA_DIR;
  delete e.XDG_CONFIG_HOME;
  delete e.CFP_TOKEN;
  return e;
};

async function run(args: string[], extra: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(CLI[0], [...CLI.slice(1), ...args], { cwd, env: env(extra) });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Words as a POSIX shell splits them: single quotes keep everything, `'\''` is a quote inside. */
function shellSplit(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unbalanced quote in ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\') {
      word = (word ?? '') + line[++i];
    } else if (c === ' ') {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/** The commands of this CLI the text prints between backticks, as argument lists after `node BIN`. */
function printedCommands(text: string): string[][] {
  // The Claude Code line is one shell command whose --env word holds the placeholder quoted once more (right for
  // that line as a whole, not a command of its own); the same placeholder stands unquoted in the JSON.
  const lines = text.split('\n').filter((l) => !l.startsWith('Claude Code: '));
  return [...lines.join('\n').matchAll(/`(node [^`\n]+)`/g)]
    .map((m) => shellSplit(m[1]))
    .filter((w) => w[0] === 'node' && w[1] === bin)
    .map((w) => w.slice(2));
}

/** The one printed command whose words start with `head`. */
function find(text: string, ...head: string[]): string[] {
  const hits = printedCommands(text).filter((args) => head.every((h, i) => args[i] === h));
  expect(hits, `${head.join(' ')} in:\n${text}`).toHaveLength(1);
  const args = hits[0];
  // Every one names this store, whatever the folder it is run from.
  expect(args.slice(-2)).toEqual(['--data-dir', store]);
  return args;
}

/** Fills a printed placeholder the way the hint tells the reader to. */
const fill = (args: string[], from: string, ...to: string[]) => args.flatMap((a) => (a === from ? to : [a]));

describe('printed commands work as printed on their store', { timeout: 300_000 }, () => {
  test('init, connect, sync, token, worker-key and serve: each hint runs on the same store from another folder', async () => {
    const init = await run(['init', '--name', 'Ann', '--email', 'ann@example.test', '--data-dir', store]);
    expect(init.code).toBe(0);
    const hints = init.stderr + init.stdout;

    // `sync` before any source: its own hint is `connect`, for this store.
    const sync0 = await run(find(hints, 'sync'));
    expect(sync0.code).toBe(1);
    const connectFromSync = find(sync0.stderr, 'connect');
    expect(connectFromSync).toEqual(find(hints, 'connect'));

    // connect as printed (ID filled in), then the sync it prints: it reaches the connected source of this store.
    const connect = await run(fill(fill(find(hints, 'connect'), 'siteA|siteB|fed', 'fed'), 'ID', '123456A'));
    expect(connect.code, connect.stderr).toBe(0);
    const sync = await run(find(connect.stdout, 'sync'), { CFP_ECF_URL: 'http://127.0.0.1:9' });
    // The ECF is unreachable here (port 9, nothing listens): the source fails, the store was found.
    expect(sync.stdout).toContain('(123456A): FAILED');
    expect(sync.code).toBe(1);

    // init again: the hint names `token create` for this store.
    const again = await run(['init', '--name', 'Ann', '--email', 'ann@example.test', '--data-dir', store]);
    expect(again.code).toBe(1);
    const created = await run(fill(find(again.stderr, 'token', 'create', '--name', 'NAME'), 'NAME', 'laptop'));
    expect(created.code).toBe(0);
    expect(created.stdout.trim()).toMatch(/^cfp_[A-Za-z0-9_-]{43}$/);

    // worker-key list with no key names the create command for this store.
    const none = await run(['worker-key', 'list', '--data-dir', store]);
    const key = await run(fill(find(none.stderr, 'worker-key', 'create'), 'NAME', 'desktop'));
    expect(key.code).toBe(0);
    expect(key.stdout.trim().split('\n').at(-1)).toMatch(/^cfpw_/);

    // claude-config --write as printed by init writes HOME's Claude Desktop file for this store.
    const write = await run(find(hints, 'claude-config', '--write'));
    expect(write.code, write.stderr).toBe(0);
    expect(readdirSync(join(home, '.config', 'Claude'))).toContain('claude_desktop_config.json');

    // serve as printed (a free port added) opens this store: its banner's commands name it again, and work.
    const serveArgs = find(hints, 'serve');
    const served = await start([...serveArgs, '--port', '0'], /"mcpServers"[\s\S]*\n}\n/, env());
    try {
      const banner = served.stdout();
      expect(banner).toContain(`data:       ${store}`);
      const another = await run(fill(find(banner, 'token', 'create', '--name', 'NAME'), 'NAME', 'phone'));
      expect(another.stdout.trim()).toMatch(/^cfp_/);
      find(banner, 'claude-config', '--write');
      // The banner's link note names the command that prints another link (issue 45 item 4); it points at this server.
      const url = /listening on (\S+)/.exec(banner)![1];
      const link = await run(find(banner, 'sign-in-link'));
      expect(link.code, link.stderr).toBe(0);
      const code = new URL(link.stdout.trim()).searchParams.get('code');
      expect(link.stdout.trim()).toBe(`${url}/?code=${code}`);
      const session = await fetch(`${url}/api/v1/settings/session`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: url }, body: JSON.stringify({ code }) });
      expect(session.status).toBe(200);
    } finally {
      served.child.kill('SIGTERM');
      await new Promise((r) => served.child.once('exit', r));
    }
  });

  test("a command without --data-dir, run where npm start's .data is, names the option that reaches it", async () => {
    const clone = join(dir, 'clone');
    mkdirSync(clone);
    const made = await promisify(execFile)(CLI[0], [...CLI.slice(1), 'init', '--name', 'Bo', '--email', 'bo@example.test', '--data-dir', join(clone, '.data')], { env: env() });
    expect(made.stdout).toMatch(/cfp_/);
    const res = await promisify(execFile)(CLI[0], [...CLI.slice(1), 'worker-key', 'create', '--name', 'laptop'], { cwd: clone, env: env() }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`no store in ${join(home, '.chess-footprint')}`);
    expect(res.stderr).toContain(`the store \`npm start\` made here is in ${join(clone, '.data')}: add \`--data-dir .data\``);
    const fixed = await promisify(execFile)(CLI[0], [...CLI.slice(1), 'worker-key', 'create', '--name', 'laptop', '--data-dir', '.data'], { cwd: clone, env: env() });
    expect(fixed.stdout.trim()).toMatch(/^cfpw_/);
  });
});
