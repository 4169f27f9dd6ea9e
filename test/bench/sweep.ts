import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../src/clock.js';
import { createUser } from '../../src/services/accounts/accounts.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { requireCurrentBuild } from './currentBuild.js';
import { strangers, lichessOutOfRange, smallOnes } from './sweepEdges.js';
import { crossOwner, longPvs, fuzz, revokeMidJob } from './sweepFishnet.js';
import { explorerFailures } from './sweepExplorer.js';
import { kills } from './sweepKills.js';
import { type Counted, NODES, type Sweep, TIMEOUT_MS } from './sweepKit.js';
import { freePort, SweptServer, Tally } from './sweepRig.js';
import type { BenchTable } from './table.js';
import { cliRun, lastLine } from './workerFleet.js';

/**
 * Issue 44, "Must show": the reliability sweep repeated, counted. Two owners, P (the demo owner, 200 games) and Q (games
 * imported from the lichess fixture), on one store served by the shipped build (`serve --engines 0`, dist/) in its own
 * process; every count is a real answer or a query of the store (read-only). One row per attack family of the issue's
 * list (sweepEdges.ts, sweepFishnet.ts, sweepKills.ts, sweepExplorer.ts; what they share in sweepKit.ts and sweepRig.ts), then the totals;
 * a third owner, R, for lichess's analysis (item 10). Knobs: CFP_BENCH_SWEEP_TRIALS (kill -9 trials, half of the worker, half of the server; default
 * 46 as the issue's), CFP_BENCH_SWEEP_LOOP_SECONDS (the failing-submission loop, default 10), CFP_BENCH_SWEEP_STRANGERS
 * (rounds of the four stranger routes, default 25), CFP_BENCH_WORKER_ENGINE (the real worker's engine, default native
 * /usr/games/stockfish when present, else the bundled build), CFP_BENCH_SWEEP_SETTLE_SECONDS (the wait for the last
 * reviews after the kills, default 300), CFP_BENCH_SWEEP_ONLY (a comma list of the families' function names, to try one).
 * Engine work is small: CFP_WORKER_NODES=20000.
 */

export async function run(): Promise<BenchTable[]> {
  requireCurrentBuild();
  const dir = mkdtempSync(join(tmpdir(), 'cfp-bench-sweep-'));
  const started = performance.now();
  const load0 = loadavg()[0];
  const pToken = lastLine(await cliRun(['demo', '--data-dir', dir, '--games', '200', '--seed', '7']));
  const setup = openStore(storeFile(dir));
  const pRow = setup.sqlite.prepare('SELECT id, email FROM users ORDER BY rowid LIMIT 1').get() as { id: string; email: string };
  const qUser = createUser(setup, systemClock, { displayName: 'Q', email: 'q@example.test' });
  setup.close();
  const qToken = lastLine(await cliRun(['token', 'create', '--name', 'q', '--data-dir', dir, '--user', qUser.email]));
  const engine = process.env.CFP_BENCH_WORKER_ENGINE ?? (existsSync('/usr/games/stockfish') ? '/usr/games/stockfish' : undefined);
  const server = new SweptServer(dir, await freePort(), { CFP_WORKER_NODES: String(NODES), CFP_WORKER_TIMEOUT_MS: String(TIMEOUT_MS) });
  await server.start();
  const s: Sweep = { dir, server, p: { id: pRow.id, email: pRow.email, token: pToken }, q: { id: qUser.id, email: qUser.email, token: qToken }, engine };
  const rows: Counted[] = [];
  try {
    const only = (process.env.CFP_BENCH_SWEEP_ONLY ?? '').split(',').filter(Boolean);
    for (const family of [strangers, crossOwner, longPvs, fuzz, revokeMidJob, kills, lichessOutOfRange, smallOnes, explorerFailures]) {
      if (only.length && !only.includes(family.name)) continue;
      const crashes = server.crashes;
      for (const r of await family(s)) rows.push({ ...r, crashes: r.crashes + server.crashes - crashes });
      if (!server.child || server.child.exitCode !== null || server.child.signalCode !== null) await server.start();
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const total = new Tally();
  for (const r of rows) total.merge(r.t);
  const sum = (f: (r: Counted) => number) => rows.reduce((n, r) => n + f(r), 0);
  const line = (r: Counted) => [r.attack, r.t.requests, r.t.ok, r.t.client, r.t.server, r.t.unanswered, r.crashes, r.lost, r.duplicated, r.refusedStored, r.leaks, r.t.undocumented];
  return [
    {
      title: 'The reliability sweep repeated (issue 44): two owners on one store, the shipped server in its own process',
      columns: ['attack', 'requests', '2xx', '4xx', '5xx', 'no answer', 'server crashes', 'rows lost', 'rows duplicated', 'refused yet stored', 'cross-owner leaks', 'not as documented'],
      rows: [
        ...rows.map(line),
        ['total', total.requests, total.ok, total.client, total.server, total.unanswered, sum((r) => r.crashes), sum((r) => r.lost), sum((r) => r.duplicated), sum((r) => r.refusedStored), sum((r) => r.leaks), total.undocumented],
      ],
      notes: [
        `${Math.round((performance.now() - started) / 1000)} s in all; load average ${load0.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (2 cores, shared). CFP_WORKER_NODES=${NODES}, CFP_WORKER_TIMEOUT_MS=${TIMEOUT_MS}; the real worker's engine: ${engine ?? 'the bundled build'}.`,
        'requests: HTTP requests the sweep sent (owners\' reads included; on the worker row, the real workers\' own); no answer: the connection closed or failed before a status. server crashes: exits nobody asked for, plus /health unanswered for 5 s (polled every second while the server was meant to be up): ' +
          `${server.healthChecks} checks, ${server.healthFailures} unanswered, ${server.exits} unasked exits.`,
        'rows lost: a review acknowledged (204 to a whole analysis, or asked for and to be completed by a worker) and absent from `analyses` at the end; rows duplicated: more than one row for an owner and move sequence, or more stored submissions (the keys\' jobs_done) than worker reviews; refused yet stored: a review present for a submission answered 4xx and never acknowledged. Counted with better-sqlite3, read-only, on the store itself.',
        'not as documented: an answer other than the protocol documents for what was sent (a 204 for a malformed analysis, a 2xx to a stranger, a 404 that differs from an unknown id\'s).',
        ...rows.flatMap((r) => r.notes.map((n) => `${r.attack}: ${n}`)),
      ],
    },
  ];
}
