import { cpus, totalmem } from 'node:os';
import { formatTable, type BenchTable } from './table.js';

/**
 * `npm run bench [name…]`: runs each benchmark module in order and prints its tables.
 * Modules are listed here explicitly; each exports `run(): Promise<BenchTable[]>`.
 */
const suites: Record<string, () => Promise<{ run: () => Promise<BenchTable[]> }>> = {
  scale: () => import('./scale.js'),
  breakdown: () => import('./breakdown.js'),
  pairing: () => import('./pairing.js'),
  stats: () => import('./stats.js'),
  sync: () => import('./sync.js'),
  engine: () => import('./engine.js'),
  judgments: () => import('./judgments.js'),
  review: () => import('./review.js'),
  fidelity: () => import('./fidelity.js'),
  crossowner: () => import('./crossOwner.js'),
  'lichess-import': () => import('./lichessImport.js'),
  workers: () => import('./workers.js'),
  'worker-load': () => import('./workerLoad.js'),
  'paused-holder': () => import('./pausedHolder.js'),
  'prep-load': () => import('./prepLoad.js'),
  'held-lock': () => import('./heldLock.js'),
  'unauth-flood': () => import('./unauthFlood.js'),
  sweep: () => import('./sweep.js'),
  'demo-games': () => import('./demoGames.js'),
};

const only = process.argv.slice(2);
console.log(`# chess-footprint benchmarks\n\nnode ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB\n`);
for (const [name, load] of Object.entries(suites)) {
  if (only.length && !only.includes(name)) continue;
  const started = Date.now();
  const tables = await (await load()).run();
  for (const t of tables) console.log(formatTable(t) + '\n');
  console.error(`[bench] ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
