import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fishnetNodeLimit } from '../../src/chess/fishnetChunks.js';
import { loadConfig } from '../../src/config.js';
import { requireCurrentBuild } from './currentBuild.js';
import type { BenchTable } from './table.js';
import { cliRun, lastLine, requestReviews, reviewsOf, serveForWorkers, startWorker, stopChild, unreviewedGames } from './workerFleet.js';

/**
 * Issue 36: review workers scale with machines. `chess-footprint worker` processes (one engine each, the bundled
 * build unless CFP_BENCH_WORKER_ENGINE names another) against `serve --engines 0` on a demo store: a bulk review of
 * the same games with 1 worker, then with 2, each on a fresh copy of the store; games per hour for each and the
 * ratio (target ≥ 1.8× on a 2-core machine: the two workers' engines take a core each, the server is idle between
 * requests). Knobs: CFP_WORKER_NODES (the node limit the server asks; default 1,000,000, searched as 857,142),
 * CFP_BENCH_WORKER_GAMES (default 20), CFP_BENCH_WORKERS (the fleet sizes, default "1,2").
 * Run it on a quiet machine: it measures wall time.
 */
export async function run(): Promise<BenchTable[]> {
  requireCurrentBuild();
  const games = Number(process.env.CFP_BENCH_WORKER_GAMES ?? 20);
  const nodes = Number(process.env.CFP_WORKER_NODES ?? 1_000_000);
  const fleets = (process.env.CFP_BENCH_WORKERS ?? '1,2').split(',').map(Number);
  const engine = process.env.CFP_BENCH_WORKER_ENGINE;

  // One demo store (seed 7), copied for each fleet so each reviews the same games from the same start.
  const base = mkdtempSync(join(tmpdir(), 'cfp-bench-workers-'));
  const token = lastLine(await cliRun(['demo', '--data-dir', base, '--games', String(Math.max(40, games * 2)), '--seed', '7']));
  const targets = unreviewedGames(base, games);
  if (targets.length < games) throw new Error(`the demo store has ${targets.length} unreviewed games with moves; ${games} asked`);

  const rows: BenchTable['rows'] = [];
  for (const n of fleets) {
    const dir = mkdtempSync(join(tmpdir(), `cfp-bench-workers-${n}-`));
    cpSync(base, dir, { recursive: true });
    const keys: string[] = [];
    for (let i = 0; i < n; i++) keys.push(lastLine(await cliRun(['worker-key', 'create', '--name', `bench-${i + 1}`, '--data-dir', dir])));
    const serve = await serveForWorkers(dir, { CFP_WORKER_NODES: String(nodes) });
    const workers = [];
    try {
      await requestReviews(serve.url, token, targets.map((t) => t.id));
      const started = performance.now();
      let jobs = 0;
      for (const key of keys) workers.push(startWorker(serve.url, key, { engines: 1, engine, log: (l) => (/^job \S+: .*submitted$/.test(l) ? (jobs += 1) : undefined) }));
      const reviews = await reviewsOf(dir, targets.map((t) => t.movesKey), 12 * 3600_000);
      const seconds = (performance.now() - started) / 1000;
      const plies = [...reviews.values()].reduce((s, a) => s + a.movesUci.length, 0);
      rows.push([`${n} worker${n === 1 ? '' : 's'} × 1 engine`, reviews.size, jobs, plies, seconds, (3600 * reviews.size) / seconds, plies / seconds]);
    } finally {
      await Promise.all(workers.map(stopChild));
      await stopChild(serve.child);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  rmSync(base, { recursive: true, force: true });
  const rate = (i: number) => Number(rows[i]?.[5]);
  const notes = [
    `${nodes.toLocaleString('en')} nodes asked per position (CFP_WORKER_NODES), ${fishnetNodeLimit(nodes).toLocaleString('en')} searched (fishnet's 6/7 for the chunks' overlap); engine: ${engine ?? `the bundled ${loadConfig({}, process.env).engine.build} build`}.`,
    'Wall time from the workers starting (their engines loading included) to the last review stored; the reviews were queued before.',
    'jobs: job lines ending "submitted" in the workers\' output (a job given back and redone by another worker counts once per submission).',
  ];
  const one = fleets.indexOf(1);
  const two = fleets.indexOf(2);
  if (one >= 0 && two >= 0) notes.unshift(`2 workers ÷ 1: ${(rate(two) / rate(one)).toFixed(2)}× games per hour (target ≥ 1.8× on 2 cores).`);
  return [
    {
      title: `Review workers (issue 36): \`chess-footprint worker\` against \`serve --engines 0\`, bulk review of ${games} demo games`,
      columns: ['fleet', 'games', 'jobs submitted', 'plies', 'wall s', 'games/hour', 'plies/s'],
      rows,
      notes,
    },
  ];
}
