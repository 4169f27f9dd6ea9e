import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildBenchStore } from './benchStore.js';
import { startBenchServer, stopBenchServer } from './benchServer.js';
import { load, type LoadResult } from './loadgen.js';
import { cpuNs } from './scale.js';
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

/** The four strangers, in a process of their own (floodClient.ts) so their writes do not slow the owner's load generator. */
function flood(url: string, seconds: number): Promise<Record<string, number>> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'floodClient.ts'), url, String(seconds), '4'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, number>) : reject(new Error(`flood client exited ${code}`))));
  });
}

/**
 * The control: a bare node:http server in its own process that answers every request 401 at once and drops the
 * socket, as the app now does for a stranger. The same flood sent to it instead of the app shows what the flood
 * costs the owner's reads through the machine alone (CPU and the kernel's loopback), with no app work at all.
 */
function startControl(): Promise<{ url: string; stop: () => void }> {
  const code = `require('node:http').createServer((q, s) => { s.writeHead(401, { connection: 'close', 'content-length': 2 }); q.socket.pause(); s.on('finish', () => q.socket.destroy()); s.end('{}'); }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (d: Buffer) => resolve({ url: `http://127.0.0.1:${d.toString().trim()}`, stop: () => child.kill('SIGTERM') }));
  });
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
    const cpu = () => cpuNs(server.child.pid!);
    let c0 = cpu();
    let t0 = performance.now();
    const quiet = await load(server.url, path, { requests: Number.MAX_SAFE_INTEGER, concurrency: 1, token, until: performance.now() + FLOOD_SECONDS * 1000 });
    const quietCpu = (cpu() - c0) / 1e6 / (performance.now() - t0);
    load1.push(loadavg()[0]);
    const strangers = flood(server.url, FLOOD_SECONDS + 1);
    await new Promise((r) => setTimeout(r, 1000)); // the flood client's start (tsx) is not part of the flood
    const until = performance.now() + FLOOD_SECONDS * 1000;
    c0 = cpu();
    t0 = performance.now();
    const flooded = await load(server.url, path, { requests: Number.MAX_SAFE_INTEGER, concurrency: 1, token, until });
    const floodCpu = (cpu() - c0) / 1e6 / (performance.now() - t0);
    for (const [k, n] of Object.entries(await strangers)) statuses.set(k, n);
    const control = await startControl();
    const controlStrangers = flood(control.url, FLOOD_SECONDS + 1);
    await new Promise((r) => setTimeout(r, 1000));
    c0 = cpu();
    t0 = performance.now();
    const controlled = await load(server.url, path, { requests: Number.MAX_SAFE_INTEGER, concurrency: 1, token, until: performance.now() + FLOOD_SECONDS * 1000 });
    const controlCpu = (cpu() - c0) / 1e6 / (performance.now() - t0);
    await controlStrangers;
    control.stop();
    load1.push(loadavg()[0]);
    load1.push(loadavg()[0]);
    const row = (name: string, r: LoadResult, share: number) => [name, Math.round(r.rps * FLOOD_SECONDS), Math.round(r.rps), r.p50.toFixed(2), r.p99.toFixed(2), r.failures, `${Math.round(share * 100)}%`];
    rows.push(row('quiet', quiet, quietCpu), row('4 strangers flooding', flooded, floodCpu), row('control: the same flood sent to a bare 401 server', controlled, controlCpu));
    rows.push(['p99 under flood ÷ quiet p99', '', '', '', (flooded.p99 / quiet.p99).toFixed(2), flooded.p99 <= 2 * quiet.p99 ? 'within 2× (goal)' : 'OVER 2×', '']);
  } finally {
    await stopBenchServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return [
    {
      title: `An owner's list_games under an unauthenticated flood (issue 44 item 2): 4 clients × 1 MiB nested bodies, no Authorization, ${FLOOD_SECONDS} s`,
      columns: ['case', 'reads (≈)', 'reads/s', 'p50 ms', 'p99 ms', 'not 200', 'server CPU (of one core)'],
      rows,
      notes: [
        `Strangers' answers: ${[...statuses].sort().map(([k, n]) => `${k} ×${n}`).join('; ')}.`,
        `1-minute load average before / after quiet / after flood / after control: ${load1.map((x) => x.toFixed(2)).join(' / ')} (2 cores, shared with other work).`,
        'The control row is what the flood costs the reads through the machine alone (the strangers\' writes, the loopback): the app\'s own share is the difference.',
      ],
    },
  ];
}
