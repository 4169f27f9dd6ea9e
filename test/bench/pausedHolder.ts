import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replaySan, movesKey, START_FEN } from '../../src/chess/pgn.js';
import { systemClock } from '../../src/clock.js';
import { createUser } from '../../src/services/accounts/accounts.js';
import { insertReviewJob } from '../../src/services/review/queue.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { parseExport } from '../helpers/lichessExport.js';
import type { BenchTable } from './table.js';

const FIXTURE = new URL('../fixtures/sources/lichess-analysed/games.ndjson', import.meta.url);
const WORKER = fileURLToPath(new URL('../helpers/pausableWorker.ts', import.meta.url));
const SLOW = fileURLToPath(new URL('../fixtures/uci/slow-engine.mjs', import.meta.url));
const SEARCH_MS = 300;
const PAUSE_MS = 31_000;

/**
 * Issue 37 item 3, with real processes: worker A (its own process, one engine) reviews a 140-ply game; A is
 * SIGSTOPped 3 s in for 31 s, so its lease goes stale and worker B (another process on the store) takes the job
 * over; A is SIGCONTed 1 s after B's claim. Each engine logs every search it answers with its worker's pid (the
 * stand-in slow engine, SLOW_ENGINE_MS a search: no CPU is spent, so nothing else on the machine matters). The
 * table counts searches per worker in each phase and the 0.5 s windows in which both workers' engines searched.
 */
export async function run(): Promise<BenchTable[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-bench-paused-'));
  const file = storeFile(dir);
  const log = join(dir, 'searches.log');
  const store = openStore(file);
  const children: ChildProcess[] = [];
  try {
    const g = parseExport(readFileSync(FIXTURE, 'utf8')).find((x) => x.moves.split(' ').length >= 140)!;
    const movesUci = replaySan(g.moves.split(' '), START_FEN)!.map((p) => p.uci);
    const user = createUser(store, systemClock, { displayName: 'O', email: 'o@example.test' });
    insertReviewJob(store, systemClock, { userId: user.id, subjectKind: 'study', subjectId: 's1', movesKey: movesKey(START_FEN, movesUci), startFen: START_FEN, movesUci });
    const env = { ...process.env, SLOW_ENGINE_MS: String(SEARCH_MS), SLOW_ENGINE_LOG: log };
    const worker = () => {
      const c = spawn(process.execPath, ['--import', 'tsx', WORKER, file, SLOW], { env, stdio: ['ignore', 'ignore', 'inherit'] });
      children.push(c);
      return c;
    };
    const t0 = Date.now();
    const searches = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => l.split(' ').map(Number) as [number, number]) : []);
    const job = () => store.sqlite.prepare('SELECT status, lease_owner AS owner, attempts FROM review_jobs').get() as { status: string; owner: string | null; attempts: number };
    const until = async (cond: () => boolean, ms: number) => {
      for (const end = Date.now() + ms; !cond(); ) {
        if (Date.now() > end) throw new Error('the scenario did not reach its next step in time');
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    const a = worker();
    await until(() => searches().some(([, p]) => p === a.pid), 30_000);
    await new Promise((r) => setTimeout(r, 3_000));
    const aOwner = job().owner;
    a.kill('SIGSTOP');
    const tStop = Date.now();
    const b = worker();
    await until(() => job().owner !== null && job().owner !== aOwner, PAUSE_MS + 30_000);
    const tClaim = Date.now();
    await new Promise((r) => setTimeout(r, Math.max(1_000, tStop + PAUSE_MS - Date.now())));
    a.kill('SIGCONT');
    const tCont = Date.now();
    await until(() => job().status === 'complete' || job().status === 'failed', 120_000);
    const tDone = Date.now();
    const final = job();
    const stored = store.sqlite.prepare('SELECT payload FROM analyses').pluck().all() as string[];
    const nodes = new Set((JSON.parse(stored[0] ?? '{"positions":[]}') as { positions: Array<{ nodes: number; terminal: string | null }> }).positions.filter((p) => !p.terminal).map((p) => p.nodes));

    const all = searches();
    const phases: Array<[string, number, number]> = [
      ['A runs alone', t0, tStop],
      ['A stopped, B waits for the lease', tStop, tClaim],
      ['B holds the job, A still stopped', tClaim, tCont],
      ['A resumed, B holds the job', tCont, tDone],
    ];
    const count = (pid: number | undefined, from: number, to: number) => all.filter(([t, p]) => p === pid && t >= from && t < to).length;
    const windows = new Map<number, Set<number>>();
    for (const [t, p] of all) windows.set(Math.floor((t - t0) / 500), (windows.get(Math.floor((t - t0) / 500)) ?? new Set()).add(p));
    const both = [...windows.values()].filter((s) => s.size > 1).length;
    return [
      {
        title: `A paused past its lease (SIGSTOP ${PAUSE_MS / 1000} s): engine searches per worker process, ${movesUci.length}-ply game, ${SEARCH_MS} ms a search`,
        columns: ['phase', 'seconds', "A's searches", "B's searches"],
        rows: phases.map(([name, from, to]) => [name, (to - from) / 1000, count(a.pid, from, to), count(b.pid, from, to)]),
        notes: [
          `0.5 s windows in which both workers' engines answered a search: ${both} of ${windows.size}`,
          `the job: ${final.status}, attempts ${final.attempts}; stored reviews: ${stored.length}, its positions searched by ${nodes.size} engine process(es)`,
        ],
      },
    ];
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) (c.kill('SIGCONT'), c.kill('SIGKILL'));
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
