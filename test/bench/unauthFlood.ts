import { request } from 'node:http';
import { loadavg } from 'node:os';
import { rmSync } from 'node:fs';
import { buildBenchStore } from './benchStore.js';
import { startBenchServer, stopBenchServer } from './benchServer.js';
import { load, type LoadResult } from './loadgen.js';
import type { BenchTable } from './table.js';

/**
 * Issue 44 item 2: an owner's `list_games` while strangers flood the server with bodies it must not read.
 * Four clients, each sending one request after another for FLOOD_SECONDS: a 1 MiB JSON body nested a
 * million levels deep (`[[[…]]]`, the worst text for a parser), no Authorization, to the routes that read
 * large bodies (a fishnet submission, 1 MiB allowed; the repertoire, about 1.1 MB allowed; the MCP and
 * REST facades, 256 KB declared, sent chunked so the declared-size refusal does not apply). The owner's
 * reads go one at a time over keep-alive (the loadgen), quiet first, then under the flood. Goal: p99
 * under the flood within twice the quiet p99. The server is the shipped build (dist/) in its own process.
 */
const FLOOD_SECONDS = Number(process.env.CFP_BENCH_FLOOD_SECONDS ?? 15);
const MIB = 1024 * 1024;
const BODY = Buffer.from('['.repeat(MIB / 2) + ']'.repeat(MIB / 2));
const TARGETS: Array<{ method: string; path: string; chunked: boolean }> = [
  { method: 'POST', path: '/fishnet/analysis/some-job', chunked: false },
  { method: 'PUT', path: '/api/v1/prep/repertoire/white', chunked: false },
  { method: 'POST', path: '/api/mcp', chunked: true },
  { method: 'POST', path: '/api/v1/me/coaching/entries', chunked: true },
];

/** One stranger: request after request until `until`; the statuses it got, counted. */
async function stranger(base: URL, first: number, until: number, statuses: Map<string, number>): Promise<void> {
  for (let i = first; performance.now() < until; i += 1) {
    const t = TARGETS[i % TARGETS.length];
    const status = await new Promise<string>((done) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      if (!t.chunked) headers['content-length'] = String(BODY.length);
      const req = request({ host: base.hostname, port: base.port, method: t.method, path: t.path, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => done(String(res.statusCode)));
        res.on('error', () => done(String(res.statusCode)));
      });
      // A server that answers before the body is read closes the socket under the rest of it.
      req.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? 'error'));
      req.end(BODY);
    });
    statuses.set(`${t.path} ${status}`, (statuses.get(`${t.path} ${status}`) ?? 0) + 1);
  }
}

export async function run(): Promise<BenchTable[]> {
  const { dataDir, token } = await buildBenchStore(2000);
  const server = await startBenchServer(dataDir, {});
  const path = () => '/api/v1/me/games';
  const rows: Array<Array<string | number>> = [];
  const statuses = new Map<string, number>();
  const load1 = [loadavg()[0]];
  try {
    await load(server.url, path, { requests: 500, concurrency: 1, token }); // warm: the kept page, the connection
    const quiet = await load(server.url, path, { requests: Number.MAX_SAFE_INTEGER, concurrency: 1, token, until: performance.now() + FLOOD_SECONDS * 1000 });
    load1.push(loadavg()[0]);
    const until = performance.now() + FLOOD_SECONDS * 1000;
    const base = new URL(server.url);
    const flood = Promise.all([0, 1, 2, 3].map((k) => stranger(base, k, until, statuses)));
    const flooded = await load(server.url, path, { requests: Number.MAX_SAFE_INTEGER, concurrency: 1, token, until });
    await flood;
    load1.push(loadavg()[0]);
    const row = (name: string, r: LoadResult) => [name, Math.round(r.rps * FLOOD_SECONDS), Math.round(r.rps), r.p50.toFixed(2), r.p99.toFixed(2), r.failures];
    rows.push(row('quiet', quiet), row('4 strangers flooding', flooded));
    rows.push(['p99 under flood ÷ quiet p99', '', '', '', (flooded.p99 / quiet.p99).toFixed(2), flooded.p99 <= 2 * quiet.p99 ? 'within 2× (goal)' : 'OVER 2×']);
  } finally {
    await stopBenchServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return [
    {
      title: `An owner's list_games under an unauthenticated flood (issue 44 item 2): 4 clients × 1 MiB nested bodies, no Authorization, ${FLOOD_SECONDS} s`,
      columns: ['case', 'reads (≈)', 'reads/s', 'p50 ms', 'p99 ms', 'not 200'],
      rows,
      notes: [
        `Strangers' answers: ${[...statuses].sort().map(([k, n]) => `${k} ×${n}`).join('; ')}.`,
        `1-minute load average before / after quiet / after flood: ${load1.map((x) => x.toFixed(2)).join(' / ')} (2 cores, shared with other work).`,
      ],
    },
  ];
}
