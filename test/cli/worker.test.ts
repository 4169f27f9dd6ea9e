import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { START_FEN } from '../../src/chess/pgn.js';
import { gamePositions } from '../../src/chess/positions.js';
import { boardAt, playUci } from '../../src/chess/replay.js';
import { fishnetEndpoint } from '../../src/cli/worker/fishnetApi.js';
import { Backoff, nodeKeyFor, progressLine } from '../../src/cli/worker/reviewWorker.js';
import { CLI } from '../helpers/cli.js';

const fakeEngine = fileURLToPath(new URL('../fixtures/uci/fishnet-log-engine.mjs', import.meta.url));
const RUY = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6', 'b5a4', 'g8f6', 'e1g1', 'f8e7', 'f1e1', 'b7b5'];
const KEY = 'wk_test_key';

describe('worker pieces', () => {
  test.each([
    ['17.1', 'sf17_1'],
    ['18', 'sf18'],
    ['16', 'sf16'],
    ['16.1', 'sf16'],
    ['19 WASM', 'sf16'],
    ['1', 'sf16'],
  ])("engine version %s reads the job's %s node limit", (version, key) => {
    expect(nodeKeyFor(version)).toBe(key);
  });

  test.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/fishnet'],
    ['http://host:3000/', 'http://host:3000/fishnet'],
    ['https://example.org/fishnet', 'https://example.org/fishnet'],
    ['http://h/base/fishnet/', 'http://h/base/fishnet'],
    ['ftp://h/', null],
    ['not a url', null],
  ])('--server %s → endpoint %s', (server, endpoint) => {
    expect(fishnetEndpoint(server)).toBe(endpoint);
  });

  test('a progress line: done of total, percent, speed and what is left', () => {
    // 34 of 108 positions in 40 s: 0.85 positions/s, 74 left ≈ 87 s; 34 × 857,142 nodes in 40 s ≈ 729 knps.
    expect(progressLine('abc', 34, 108, 40_000, 34 * 857_142)).toBe('job abc: 34/108 positions (31%), 0.85 positions/s, 729 knps, about 1 min 27 s left');
    expect(progressLine('abc', 108, 108, 100_000, 0)).toBe('job abc: 108/108 positions (100%), 1.08 positions/s, 0 knps');
  });

  test("fishnet's back-off: from 100 ms, at most four times the last wait, never past the cap", () => {
    const b = new Backoff(30_000);
    let last = 100;
    for (let i = 0; i < 40; i++) {
      const w = b.next();
      expect(w).toBeGreaterThanOrEqual(100);
      expect(w).toBeLessThanOrEqual(Math.min(30_000, 4 * Math.max(100, last)));
      last = w;
    }
    b.reset();
    expect(b.next()).toBeLessThanOrEqual(400);
  });
});

/** What the fake server saw. */
interface Seen {
  method: string;
  path: string;
  query: string;
  auth: string | undefined;
  ua: string | undefined;
  body: unknown;
}

/**
 * A fishnet server written from fishnet's doc/protocol.md alone: it hands out the jobs queued in `jobs` (204 when none),
 * answers a whole analysis with 204 (or 202 and the next job when `chain` holds one and `stop` is not asked), progress
 * reports with 204, abort with 204, and the key check with 204 for KEY, 401 otherwise.
 */
function fakeFishnet(jobs: object[], chain: object[] = [], opts: { refuseProgressOf?: string } = {}) {
  const seen: Seen[] = [];
  let acquires = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = raw ? JSON.parse(raw) : undefined;
      seen.push({ method: req.method ?? '', path: url.pathname, query: url.search, auth: req.headers.authorization, ua: req.headers['user-agent'], body });
      const reply = (status: number, json?: object) => {
        res.writeHead(status, json ? { 'content-type': 'application/json' } : {});
        res.end(json ? JSON.stringify(json) : undefined);
      };
      if (req.headers.authorization !== `Bearer ${KEY}`) return reply(401, { error: 'unknown key' });
      if (url.pathname === '/fishnet/key') return reply(204);
      if (url.pathname === '/fishnet/acquire') {
        acquires += 1;
        // The first acquire finds nothing: the worker backs off and asks again.
        const job = acquires > 1 ? jobs.shift() : undefined;
        return job ? reply(202, job) : reply(204);
      }
      if (url.pathname.startsWith('/fishnet/abort/')) return reply(204);
      if (url.pathname.startsWith('/fishnet/analysis/')) {
        const analysis = (body as { analysis: unknown[] }).analysis;
        const whole = analysis[0] !== null;
        // Standing for a lease that ran out and a job handed to another machine: the progress report is refused.
        if (!whole && url.pathname === `/fishnet/analysis/${opts.refuseProgressOf}`) return reply(404, { error: 'this key holds no job' });
        const next = whole && url.searchParams.get('stop') !== 'true' ? chain.shift() : undefined;
        return next ? reply(202, next) : reply(204);
      }
      reply(404, { error: 'not found' });
    });
  });
  return { server, seen, acquires: () => acquires };
}

function job(id: string, moves: string[], skip: number[]) {
  return {
    work: { type: 'analysis', id, nodes: { sf16: 7000, sf17_1: 14000, sf18: 21000, classical: 28000 }, timeout: 7000 },
    game_id: id,
    position: START_FEN,
    variant: 'standard',
    moves: moves.join(' '),
    skipPositions: skip,
  };
}

describe('chess-footprint worker against a fishnet server written from doc/protocol.md', () => {
  let dir: string;
  let server: Server | null = null;
  let child: ChildProcess | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cfp-worker-'));
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    child = null;
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = null;
    rmSync(dir, { recursive: true, force: true });
  });

  const listen = async (s: Server) => {
    server = s;
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const addr = s.address();
    return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  };
  const run = (args: string[], env: Record<string, string> = {}) => {
    const c = spawn(CLI[0], [...CLI.slice(1), 'worker', ...args], { env: { ...process.env, FISHNET_LOG_ENGINE_LOG: join(dir, 'engine.log'), CFP_WORKER_KEY: KEY, ...env } });
    child = c;
    let out = '';
    let err = '';
    c.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => c.once('exit', (code) => r(code)));
    return { child: c, exited, out: () => out, err: () => err };
  };
  const until = async (cond: () => boolean, ms = 20_000) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const engineLog = () => {
    try {
      return readFileSync(join(dir, 'engine.log'), 'utf8');
    } catch {
      return '';
    }
  };

  test('acquires after a 204, searches the fishnet way, reports progress, submits every position, takes the 202 next job; SIGTERM stops it', async () => {
    const fake = fakeFishnet([job('jobA', RUY, [0, 5])], [job('jobC', ['d2d4', 'd7d5'], [])]);
    const url = await listen(fake.server);
    // 15 searches at 300 ms each: at least one progress report (fishnet reports at most every 3 s).
    writeFileSync(join(dir, 'key'), `${KEY}\n`, { mode: 0o600 });
    const w = run(['--server', url, '--key-file', join(dir, 'key'), '--engine', fakeEngine], { FISHNET_LOG_ENGINE_DELAY_MS: '300' });
    await until(() => /job jobC: .*submitted/.test(w.out()), 60_000);
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);

    const submissions = fake.seen.filter((s) => s.path === '/fishnet/analysis/jobA');
    const progress = submissions.filter((s) => (s.body as { analysis: unknown[] }).analysis.some((e) => e === null));
    const whole = submissions.filter((s) => !progress.includes(s));
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(whole.length).toBe(1);
    // Every request carries the key and says what the worker runs: our client and the engine's own name.
    for (const s of fake.seen) {
      expect(s.auth).toBe(`Bearer ${KEY}`);
      expect(s.ua).toMatch(/^chess-footprint-worker-[a-z0-9]+-[a-z0-9]+\/\d+\.\d+\.\d+ \(FishnetLog 1\)$/);
    }
    // A progress report: position 0 always pending (lila tells progress by it), stop asked.
    for (const p of progress) {
      expect((p.body as { analysis: unknown[] }).analysis[0]).toBeNull();
      expect(p.query).toBe('?stop=true');
    }
    const body = whole[0].body as { stockfish: { flavor: string }; analysis: Array<Record<string, unknown>> };
    expect(whole[0].query).toBe('');
    expect(body.stockfish).toEqual({ flavor: 'nnue' });
    expect(body.analysis).toHaveLength(13);
    expect(body.analysis[0]).toEqual({ skipped: true });
    expect(body.analysis[5]).toEqual({ skipped: true });
    const fens = gamePositions(START_FEN, RUY).map((p) => p.fen);
    for (const i of [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12]) {
      // The fixture engine's reading, by hand (test/fixtures/uci/fishnet-log-engine.mjs): the depth-2 line.
      expect(body.analysis[i]).toMatchObject({ depth: 2, score: { cp: 10 * i + 1 }, time: 3, nodes: 30, nps: 2000 });
      const board = boardAt(fens[i])!;
      expect(String(body.analysis[i].pv).split(' ').every((m) => playUci(board, m) !== null)).toBe(true);
    }
    // The engine reads the sf16 limit (its version names no other key), scaled by 6/7: 7000 → 6000.
    const gos = engineLog().split('\n').filter((l) => l.includes(' go '));
    expect(gos.length).toBeGreaterThan(0);
    expect(gos.every((l) => l.endsWith('go nodes 6000'))).toBe(true);
    // fishnet's chunks for 12 plies with 0 and 5 skipped (test/chess/fishnetChunks.test.ts): 3 chunks, then jobC's 1.
    expect(engineLog().split('\n').filter((l) => l.endsWith(' ucinewgame')).length).toBe(4);
    // jobC came in the 202 answer: no acquire for it. Acquires: the empty one, jobA's, and after jobC the worker asks again.
    const c = fake.seen.filter((s) => s.path === '/fishnet/analysis/jobC');
    expect(c.length).toBe(1);
    expect((c[0].body as { analysis: unknown[] }).analysis).toHaveLength(3);
    expect(fake.seen.findIndex((s) => s.path === '/fishnet/analysis/jobC')).toBeGreaterThan(fake.seen.findIndex((s) => s.path === '/fishnet/analysis/jobA'));
    expect(w.out()).toMatch(/job jobA: 12 plies, 11 positions searched \(2 skipped\) at 6000 nodes in [\d.]+ s, \d+ knps; submitted/);
  }, 90_000);

  test('a refused progress report stops the search at once, says why, submits nothing for that job, and the worker takes the next', async () => {
    const fake = fakeFishnet([job('jobLost', RUY, []), job('jobNext', ['d2d4'], [])], [], { refuseProgressOf: 'jobLost' });
    const url = await listen(fake.server);
    const w = run(['--server', url, '--engine', fakeEngine], { FISHNET_LOG_ENGINE_DELAY_MS: '600' });
    await until(() => /job jobNext: .*submitted/.test(w.out()), 60_000);
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    expect(w.out()).toMatch(/job jobLost: stopped after \d+ of 13 positions: the server refused a progress report \(404: this key holds no job\); it is no longer this worker's/);
    const lost = fake.seen.filter((s) => s.path === '/fishnet/analysis/jobLost');
    // One progress report (refused), no whole analysis, no abort (the job is not this worker's to give back).
    expect(lost.every((s) => (s.body as { analysis: unknown[] }).analysis[0] === null)).toBe(true);
    expect(fake.seen.some((s) => s.path === '/fishnet/abort/jobLost')).toBe(false);
    // Stopped the moment the refusal came: far fewer than 13 searches of jobLost (jobNext's two come after).
    const positions = w.out().match(/job jobLost: stopped after (\d+) of 13/)!;
    expect(Number(positions[1])).toBeLessThan(13);
    // Plain output (not a terminal): the first position's progress, done of total and speed.
    expect(w.out()).toMatch(/job jobLost: 1\/13 positions \(7%\), [\d.]+ positions\/s, \d+ knps/);
    // Stopping, the worker says so to the server: shown as gone at once.
    expect(fake.seen.at(-1)?.path).toBe('/fishnet/leave');
  }, 90_000);

  test('SIGTERM mid-job: the engines stop, the job is given back with abort, nothing is submitted for it', async () => {
    const fake = fakeFishnet([job('jobB', RUY, [])]);
    const url = await listen(fake.server);
    const w = run(['--server', url, '--engine', fakeEngine, '--engines', '2'], { FISHNET_LOG_ENGINE_DELAY_MS: '2000' });
    await until(() => /go nodes/.test(engineLog()));
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    expect(fake.seen.some((s) => s.method === 'POST' && s.path === '/fishnet/abort/jobB')).toBe(true);
    expect(fake.seen.some((s) => s.path === '/fishnet/analysis/jobB' && (s.body as { analysis: unknown[] }).analysis[0] !== null)).toBe(false);
    expect(w.out()).toMatch(/job jobB: stopped after 0 of 13 positions, given back to the server/);
    expect(fake.seen.at(-1)?.path).toBe('/fishnet/leave');
  }, 60_000);

  test('a key the server does not know: one error line, exit 1, no job asked for', async () => {
    const fake = fakeFishnet([job('jobX', RUY, [])]);
    const url = await listen(fake.server);
    const w = run(['--server', url, '--engine', fakeEngine], { CFP_WORKER_KEY: 'wrong' });
    expect(await w.exited).toBe(1);
    expect(w.err()).toMatch(/^error: the server at http:\/\/127\.0\.0\.1:\d+\/fishnet does not know this key \(or it was revoked\)\n$/);
    expect(fake.seen.map((s) => s.path)).toEqual(['/fishnet/key']);
  }, 60_000);

  test('a server not up yet is waited for (fishnet back-off), then its jobs taken', async () => {
    // A free port, released, and the server started on it only after the worker has tried it.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const w = run(['--server', `http://127.0.0.1:${port}`, '--engine', fakeEngine]);
    await until(() => /ECONNREFUSED; trying again in \d+ s/.test(w.out()));
    const fake = fakeFishnet([job('jobLate', ['e2e4'], [])]);
    server = fake.server;
    await new Promise<void>((r) => fake.server.listen(port, '127.0.0.1', () => r()));
    await until(() => /job jobLate: .*submitted/.test(w.out()), 60_000);
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
  }, 90_000);

  test('a job whose moves do not replay: said, not given back (it would come straight back), the worker carries on', async () => {
    const fake = fakeFishnet([job('jobBad', ['e2e4', 'e2e4'], []), job('jobOk', ['d2d4'], [])]);
    const url = await listen(fake.server);
    const w = run(['--server', url, '--engine', fakeEngine]);
    await until(() => /job jobOk: .*submitted/.test(w.out()));
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    expect(w.out()).toMatch(/job jobBad: cannot be searched \(move 2 \(e2e4\) is not legal\); left to time out on the server/);
    expect(fake.seen.some((s) => s.path.includes('jobBad'))).toBe(false);
    expect(engineLog()).not.toMatch(/e2e4 e2e4/);
  }, 60_000);

  test('an engine that cannot start: one error line naming it, exit 1, nothing asked of the server', async () => {
    const fake = fakeFishnet([job('jobX', RUY, [])]);
    const url = await listen(fake.server);
    const w = run(['--server', url, '--engine', join(dir, 'no-such-engine')]);
    expect(await w.exited).toBe(1);
    expect(w.err()).toMatch(/^error: .*no-such-engine.*ENOENT/);
    expect(fake.seen).toEqual([]);
  }, 60_000);

  test('the key never on the command line: --key is refused, a key file or $CFP_WORKER_KEY is read, a file others can read is pointed out', async () => {
    const a = run(['--server', 'http://127.0.0.1:9', '--key', KEY]);
    expect(await a.exited).toBe(2);
    expect(a.err()).toMatch(/--key puts the key where any user of this machine reads it \(`ps`\).*--key-file FILE.*\$CFP_WORKER_KEY/);
    const b = run(['--server', 'http://127.0.0.1:9', '--key-file', join(dir, 'missing')]);
    expect(await b.exited).toBe(2);
    expect(b.err()).toMatch(/cannot read the key file .*missing: ENOENT/);
    const c = run(['--server', 'http://127.0.0.1:9'], { CFP_WORKER_KEY: '' });
    expect(await c.exited).toBe(2);
    expect(c.err()).toMatch(/a worker key is needed: --key-file FILE .* or \$CFP_WORKER_KEY/);
    const fake = fakeFishnet([]);
    const url = await listen(fake.server);
    const file = join(dir, 'shared-key');
    writeFileSync(file, `  ${KEY}\n`);
    chmodSync(file, 0o644);
    const d = run(['--server', url, '--key-file', file, '--engine', fakeEngine], { CFP_WORKER_KEY: 'not-this-one' });
    await until(() => fake.acquires() >= 1);
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    expect(d.err()).toContain(`${file} is readable by other users of this machine; \`chmod 600 ${file}\``);
    // The file's key, trimmed, wins over the environment.
    expect(fake.seen[0].auth).toBe(`Bearer ${KEY}`);
  }, 60_000);

  test('usage errors exit 2 naming the option', async () => {
    const a = run(['--server', 'ftp://x']);
    expect(await a.exited).toBe(2);
    expect(a.err()).toMatch(/--server expects an http\(s\) URL/);
    const b = run(['--server', 'http://127.0.0.1:9', '--engines', '0']);
    expect(await b.exited).toBe(2);
    expect(b.err()).toMatch(/--engines expects a whole number from 1 to 64/);
  }, 60_000);
});
