import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueWorkerKey } from '../../src/auth/workerKeys.js';
import { movesKey, replaySan, START_FEN } from '../../src/chess/pgn.js';
import { systemClock } from '../../src/clock.js';
import { createUser } from '../../src/services/accounts/accounts.js';
import { insertReviewJob, REVIEW_PRIORITY } from '../../src/services/review/queue.js';
import { engineOutput } from '../../src/services/review/records.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { parseExport } from '../helpers/lichessExport.js';
import { requireCurrentBuild } from './currentBuild.js';
import { percentile, type BenchTable } from './table.js';
import { cliRun, lastLine, serveForWorkers, startWorker, stopChild } from './workerFleet.js';
import { eventLoopHold } from './eventLoopHold.js';
import { MAX_PV_PLIES, worstSubmission } from './worstSubmission.js';

const FIXTURE = new URL('../fixtures/lichess-analysed/games.ndjson', import.meta.url);

/**
 * Issue 44 items 1 and 3: what a review worker's submissions cost the server, and a slow machine's game completing.
 * On `serve --engines 0` (the shipped build) with two owners: P (the demo owner, 500 games) and Q, whose worker key
 * submits. Rows:
 * - the longest `/health` answer while one submission is judged (a timer probe from outside: one request after
 *   another, each answer's time; the event loop held for N ms shows as an answer taking N ms), for the worst legal
 *   submission of each of the fixture's longest games (every PV 246 legal plies, Stockfish's MAX_PLY) and for the same
 *   refused (its last entry `{"mate": 0}`); then the same submissions' longest event-loop delay measured inside the
 *   server (eventLoopHold.ts);
 * - P's `list_games` latency, quiet and while Q's key loops failing submissions as fast as it can;
 * - the fixture's game cut to 107 plies (issue 44's) reviewed by `chess-footprint worker` under
 *   CFP_WORKER_TIMEOUT_MS=2000, native Stockfish (CFP_BENCH_WORKER_ENGINE, default /usr/games/stockfish) at the
 *   default 1,000,000 nodes: the wall time, which is also docs/machines.md's time per game.
 * Knobs: CFP_BENCH_LOAD_SECONDS (each latency window, default 10), CFP_BENCH_SLOW_GAME=0 skips the last row and
 * CFP_BENCH_SLOW_GAME=only runs it alone (the issue's loaded-machine case: run it beside other work on purpose),
 * CFP_BENCH_WORKER_ENGINES the worker's engines for it (default 1; the issue's loaded machine ran 2).
 */
export async function run(): Promise<BenchTable[]> {
  requireCurrentBuild();
  const seconds = Number(process.env.CFP_BENCH_LOAD_SECONDS ?? 10);
  const games = parseExport(readFileSync(FIXTURE, 'utf8'))
    .map((g) => replaySan(g.moves.split(' ').filter(Boolean), START_FEN)!.map((p) => p.uci))
    .sort((a, b) => b.length - a.length);
  const dir = mkdtempSync(join(tmpdir(), 'cfp-bench-worker-load-'));
  const load: string[] = [`load average at start ${loadavg().map((x) => x.toFixed(1)).join(' / ')}`];
  const tables: BenchTable[] = [];
  try {
    if (process.env.CFP_BENCH_SLOW_GAME === 'only') return [await slowGame(dir, games)];
    const pToken = lastLine(await cliRun(['demo', '--data-dir', dir, '--games', '500', '--seed', '7']));
    const store = openStore(storeFile(dir));
    const q = createUser(store, systemClock, { displayName: 'Q', email: 'q@example.test' });
    const qKey = issueWorkerKey(store, systemClock, q.id, 'q-box').key;
    const jobFor = (moves: string[], id: string) =>
      insertReviewJob(store, systemClock, { userId: q.id, subjectKind: 'study', subjectId: id, movesKey: movesKey(START_FEN, moves), startFen: START_FEN, movesUci: moves, priority: REVIEW_PRIORITY.request });
    const serve = await serveForWorkers(dir, {});
    const fishnet = (path: string, body?: unknown) =>
      fetch(`${serve.url}/fishnet${path}`, { method: 'POST', headers: { authorization: `Bearer ${qKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
    try {
      const rows: BenchTable['rows'] = [];
      // The machine's own noise: the probe alone, with no submission, for a few seconds (on a shared, loaded machine a
      // request can wait for a core whatever the server does).
      for (let k = 0; k < 2; k++) {
        const idle = healthProbe(serve.url);
        await new Promise((r) => setTimeout(r, 3000));
        const quietProbe = await idle.stop();
        rows.push([`no submission (the probe alone, 3 s)`, 0, '—', 3000, quietProbe.max, quietProbe.count]);
      }
      for (const [i, moves] of games.slice(0, 2).entries()) {
        for (const refused of [false, true]) {
          jobFor(moves, `worst-${i}-${refused}`);
          const work = (await (await fishnet('/acquire')).json()) as { work: { id: string } };
          const body = worstSubmission(moves, refused);
          const text = JSON.stringify(body);
          const probe = healthProbe(serve.url);
          const t = performance.now();
          const res = await fishnet(`/analysis/${work.work.id}?stop=true`, body);
          const ms = performance.now() - t;
          await res.body?.cancel();
          const longest = await probe.stop();
          rows.push([`${moves.length} plies, every PV ${MAX_PV_PLIES} plies${refused ? ', last entry refused' : ''}`, Math.round(text.length / 1024), res.status, ms, longest.max, longest.count]);
          // The refused job (back in the queue) is dropped, and the key's refusals forgotten, so the next row measures its own submission.
          store.sqlite.prepare("DELETE FROM review_jobs WHERE user_id = ? AND status = 'queued'").run(q.id);
          store.sqlite.prepare('UPDATE worker_keys SET failures = 0, failed_at = NULL WHERE user_id = ?').run(q.id);
        }
      }
      tables.push({
        title: 'A review worker’s worst legal submission (issue 44 item 1): the longest /health answer while the server judges it',
        columns: ['submission', 'KiB', 'status', 'answered in ms', 'longest /health ms', '/health answers'],
        rows,
        notes: ['Goal: the longest /health answer ≤ 50 ms (the event loop is never held longer). Before issue 44 a 28-position submission of 4,000-character PVs held it 13.4 s.', ...load],
      });
      tables.push(await eventLoopHold(games));

      // P's list_games, quiet, then while Q's key fails submissions in a loop.
      const listGames = async (ms: number) => {
        const times: number[] = [];
        const end = performance.now() + ms;
        while (performance.now() < end) {
          const t = performance.now();
          const r = await fetch(`${serve.url}/api/v1/me/games?page=1`, { headers: { authorization: `Bearer ${pToken}` } });
          await r.arrayBuffer();
          if (r.status !== 200) throw new Error(`list_games answered ${r.status}`);
          times.push(performance.now() - t);
        }
        return times.sort((a, b) => a - b);
      };
      const quiet = await listGames(seconds * 1000);
      jobFor(games[0], 'loop');
      // Q's key in a process of its own (failingKey.ts): the reads start once it is ready, and it stops a second after them.
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'failingKey.ts'), serve.url, qKey, String(seconds + 1), games[0].join(' ')], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      const ready = new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => ((out += d), out.startsWith('ready\n') && resolve())));
      const attacker = new Promise<{ submissions: number; refused: number; throttled: number; other: number }>((resolve, reject) =>
        child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.slice('ready\n'.length))) : reject(new Error(`failingKey exited ${code}`)))),
      );
      await ready;
      const busy = await listGames(seconds * 1000);
      const counts = await attacker;
      const row = (name: string, t: number[]) => [name, t.length, percentile(t, 50), percentile(t, 99), t[t.length - 1]];
      tables.push({
        title: 'Another owner’s list_games while a worker key fails submissions in a loop (issue 44 item 1)',
        columns: ['while', 'reads', 'p50 ms', 'p99 ms', 'max ms'],
        rows: [row('quiet', quiet), row(`Q's key looping (${counts.submissions} submissions: ${counts.refused} refused 400, ${counts.throttled} acquires answered 429, ${counts.other} other)`, busy)],
        notes: [`${seconds} s each, one read after another. Each of Q's submissions is the worst refused one above, sent by a process of its own (failingKey.ts) as fast as it is answered.`, `load average at the end ${loadavg().map((x) => x.toFixed(1)).join(' / ')}`],
      });
    } finally {
      await stopChild(serve.child);
      store.close();
    }
    if (process.env.CFP_BENCH_SLOW_GAME !== '0') tables.push(await slowGame(dir, games));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return tables;
}

/** Times each /health answer, one request after another, until stopped: the longest is the event loop's longest hold. */
function healthProbe(url: string) {
  let running = true;
  let max = 0;
  let count = 0;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      const r = await fetch(`${url}/health`);
      await r.arrayBuffer();
      max = Math.max(max, performance.now() - t);
      count += 1;
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { max, count };
    },
  };
}

/** Issue 44 item 3: the 107-ply game reviewed by one `chess-footprint worker` under CFP_WORKER_TIMEOUT_MS=2000. */
async function slowGame(base: string, games: string[][]): Promise<BenchTable> {
  const engine = process.env.CFP_BENCH_WORKER_ENGINE ?? '/usr/games/stockfish';
  const engines = Number(process.env.CFP_BENCH_WORKER_ENGINES ?? 1);
  const moves = games.find((g) => g.length >= 107)!.slice(0, 107);
  const dir = join(base, 'slow');
  const ownerToken = lastLine(await cliRun(['init', '--name', 'S', '--email', 's@example.test', '--data-dir', dir]));
  void ownerToken;
  const store = openStore(storeFile(dir));
  const owner = store.sqlite.prepare('SELECT id FROM users LIMIT 1').get() as { id: string };
  const key = issueWorkerKey(store, systemClock, owner.id, 'slow-box').key;
  const job = insertReviewJob(store, systemClock, { userId: owner.id, subjectKind: 'study', subjectId: 'slow', movesKey: movesKey(START_FEN, moves), startFen: START_FEN, movesUci: moves });
  const serve = await serveForWorkers(dir, { CFP_WORKER_TIMEOUT_MS: '2000' });
  const lines: string[] = [];
  const started = performance.now();
  const loadBefore = loadavg()[0];
  const worker = startWorker(serve.url, key, { engines, engine, log: (l) => lines.push(l) });
  try {
    const end = Date.now() + 3600_000;
    while (!engineOutput(store, owner.id, job.movesKey)) {
      if (Date.now() > end) throw new Error('the 107-ply game was not stored within an hour');
      if (worker.exitCode !== null) throw new Error(`the worker exited: ${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const secs = (performance.now() - started) / 1000;
    const jobLines = lines.filter((l) => /^job /.test(l) && !/positions \(\d+%\)/.test(l));
    return {
      title: 'A slow machine’s game completes (issue 44 item 3): the 107-ply game, CFP_WORKER_TIMEOUT_MS=2000, one `chess-footprint worker`',
      columns: ['engine', 'engines', 'positions', 'nodes asked', 'wall s', 's per position', 'jobs started', 'refused'],
      rows: [[engine, engines, moves.length + 1, 1_000_000, secs, secs / (moves.length + 1), jobLines.length, jobLines.filter((l) => /refused|no longer this worker/.test(l)).length]],
      notes: [`load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (2 cores shared with other work).`, ...jobLines.slice(0, 3)],
    };
  } finally {
    await stopChild(worker);
    await stopChild(serve.child);
    store.close();
  }
}
