import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, storeFile } from '../../src/store/db.js';
import { buildBenchStore } from './benchStore.js';
import { percentile, type BenchTable } from './table.js';

const REQUESTS = 2000;
const CONCURRENCY = 8;

/** Fires `REQUESTS` GETs with `CONCURRENCY` in flight; latency per request and overall rate. */
async function load(url: string, token: string, paths: () => string) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next += 1;
        const t = performance.now();
        const res = await fetch(url + paths(), { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (res.status !== 200) failures += 1;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), rps: REQUESTS / seconds, failures };
}

export async function run(): Promise<BenchTable[]> {
  const rows: BenchTable['rows'] = [];
  for (const size of [10_000, 100_000]) {
    const { dataDir, token, userId } = await buildBenchStore(size);
    const store = openStore(storeFile(dataDir));
    const ids = (store.sqlite.prepare('SELECT id FROM games WHERE user_id = ? ORDER BY random() LIMIT 500').all(userId) as Array<{ id: string }>).map((r) => r.id);
    store.close();
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'serveBench.ts'), dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
    let i = 0;
    const scenarios: Array<[string, () => string]> = [
      ['trivial express route', () => '/bench/trivial'],
      ['list_games page 1', () => '/api/v1/me/games'],
      ['list_games filtered', () => '/api/v1/me/games?provider=siteA,siteB&result=loss&timeClass=blitz&opening=Sicilian&sort=accuracy-desc'],
      ['list_games lineMoves', () => `/api/v1/me/games?lineMoves=${encodeURIComponent('e4 c5 Nf3 d6')}&page=2`],
      ['get_game', () => `/api/v1/me/games/${ids[i++ % ids.length]}`],
    ];
    await load(url, token, scenarios[0][1]); // warm-up
    let baseline = 0;
    for (const [name, paths] of scenarios) {
      const r = await load(url, token, paths);
      if (name.startsWith('trivial')) baseline = r.rps;
      rows.push([size, name, r.p50, r.p99, r.rps, baseline / r.rps, r.failures]);
    }
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
  return [
    {
      title: 'HTTP read latency (issue 2): list_games and get_game over loopback',
      columns: ['games', 'request', 'p50 ms', 'p99 ms', 'req/s', 'slower than trivial ×', 'non-200'],
      rows,
      notes: [
        `${REQUESTS} requests per row, ${CONCURRENCY} in flight, server in its own process (rate limits off), client fetch in this one`,
        'the trivial route is a plain express handler in the same server, measured in the same run: the ratio column is the figure',
      ],
    },
  ];
}
