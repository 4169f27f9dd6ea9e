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
 * The app paces strangers by address (src/http/strangerPace.ts): every stranger here comes from the loopback
 * address, so past its burst each refusal is held a second and the four clients, each waiting for its answer,
 * send about one request a second; the control answers every one at once.
 */
const FLOOD_SECONDS = Number(process.env.CFP_BENCH_FLOOD_SECONDS ?? 15);

/**
 * The four strangers, in a process of their own (floodClient.ts) so their writes do not slow the owner's load
 * generator; `nice` lowers that process's priority. Resolves with its answers' counts and its CPU time (`cpu ms`).
 */
function flood(url: string, seconds: number, nice?: number, perSecond?: number): Promise<Record<string, number>> {
  const args = [join(import.meta.dirname, 'floodClient.ts'), url, String(seconds), '4', nice === undefined ? '-' : String(nice), ...(perSecond === undefined ? [] : [String(perSecond)])];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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

/** The nice value of the variant whose strangers run at the lowest priority (os.setPriority). */
const NICED = 19;
/**
 * The paced variant's requests per second (all four strangers): what this flood reached against the app when
 * its refusals went through express (about 4,840 in 16 s); paced, the app and the control get the same flood
 * whatever their speed (unpaced, each client sends again as soon as it is answered: a faster refusal draws more).
 */
const PACED = 300;

export async function run(): Promise<BenchTable[]> {
  const { dataDir, token } = await buildBenchStore(2000);
  const server = await startBenchServer(dataDir, {});
  const path = () => '/api/v1/me/games';
  const rows: Array<Array<string | number>> = [];
  const notes: string[] = [];
  const load1 = [loadavg()[0]];
  const cpu = () => cpuNs(server.child.pid!);
  /** The owner's reads for FLOOD_SECONDS, with the server's CPU share over them. */
  const reads = async () => {
    const c0 = cpu();
    const t0 = performance.now();
    const r = await load(server.url, path, { requests: Number.MAX_SAFE_INTEGER, concurrency: 1, token, until: performance.now() + FLOOD_SECONDS * 1000 });
    return { r, share: (cpu() - c0) / 1e6 / (performance.now() - t0) };
  };
  const row = (name: string, { r, share }: { r: LoadResult; share: number }, strangers: Record<string, number> | null) => {
    const answered = strangers ? Object.entries(strangers).filter(([k]) => k !== 'cpu ms').reduce((n, [, v]) => n + v, 0) : 0;
    const client = strangers ? `${Math.round((strangers['cpu ms'] / ((FLOOD_SECONDS + 1) * 1000)) * 100)}%` : '';
    rows.push([name, Math.round(r.rps * FLOOD_SECONDS), Math.round(r.rps), r.p50.toFixed(2), r.p99.toFixed(2), r.failures, `${Math.round(share * 100)}%`, strangers ? answered : '', client]);
    return r;
  };
  /** The owner's reads while the strangers send to `target` (the app, or the bare control server). */
  const flooded = async (name: string, target: string, nice?: number, perSecond?: number) => {
    const strangers = flood(target, FLOOD_SECONDS + 1, nice, perSecond);
    await new Promise((r) => setTimeout(r, 1000)); // the flood client's start (tsx) is not part of the flood
    const measured = await reads();
    const answers = await strangers;
    load1.push(loadavg()[0]);
    notes.push(`${name}: strangers' answers ${Object.entries(answers).filter(([k]) => k !== 'cpu ms').sort().map(([k, n]) => `${k} ×${n}`).join('; ')}.`);
    return row(name, measured, answers);
  };
  try {
    await load(server.url, path, { requests: 500, concurrency: 1, token }); // warm: the kept page, the connection
    const quiet = row('quiet', await reads(), null);
    load1.push(loadavg()[0]);
    const control = await startControl();
    try {
      const hit = await flooded('4 strangers flooding', server.url);
      await flooded('control: the same flood sent to a bare 401 server', control.url);
      const pacedHit = await flooded(`variant, strangers paced (${PACED}/s): 4 strangers flooding`, server.url, undefined, PACED);
      await flooded(`variant, strangers paced (${PACED}/s): control`, control.url, undefined, PACED);
      const nicedHit = await flooded(`variant, strangers niced (${NICED}): 4 strangers flooding`, server.url, NICED);
      await flooded(`variant, strangers niced (${NICED}): control`, control.url, NICED);
      const ratio = (name: string, r: LoadResult) => rows.push([name, '', '', '', (r.p99 / quiet.p99).toFixed(2), r.p99 <= 2 * quiet.p99 ? 'within 2× (goal)' : 'OVER 2×', '', '', '']);
      ratio('p99 under flood ÷ quiet p99', hit);
      ratio(`variant, strangers paced (${PACED}/s): p99 under flood ÷ quiet p99`, pacedHit);
      ratio(`variant, strangers niced (${NICED}): p99 under flood ÷ quiet p99`, nicedHit);
    } finally {
      control.stop();
    }
  } finally {
    await stopBenchServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return [
    {
      title: `An owner's list_games under an unauthenticated flood (issue 44 item 2): 4 clients × 1 MiB nested bodies, no Authorization, ${FLOOD_SECONDS} s`,
      columns: ['case', 'reads (≈)', 'reads/s', 'p50 ms', 'p99 ms', 'not 200', 'server CPU (of one core)', 'strangers answered', 'flood client CPU'],
      rows,
      notes: [
        ...notes,
        `1-minute load average before / after quiet / after each flooded row: ${load1.map((x) => x.toFixed(2)).join(' / ')} (2 cores, shared with other work).`,
        'The control rows are what the flood costs the reads through the machine alone (the strangers\' writes, the loopback, the bare server\'s answers): the app\'s own share is the difference.',
        'The app paces strangers by address (src/http/strangerPace.ts: 20 refusals at once, then one a second, the rest held a second each, unread); the control does not, so there the clients send as fast as they are answered.',
        `The paced variant sends ${PACED} strangers a second in all, to the app and to the control alike.`,
        `The niced variant runs the flood client at nice ${NICED} (os.setPriority), so that its own writing yields the CPU to the server and the reads: it isolates the server's cost per stranger; it is not the unconditioned figure.`,
      ],
    },
  ];
}
