import { connect } from 'node:net';
import { percentile } from './table.js';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  /** The server's CPU time per request, µs (all its threads), when the options say how to read it. */
  serverUsPerRequest: number;
  /** This process's (the load generator's) CPU time over the wall time: near 1, it is what bounds the rate. */
  clientBusy: number;
}

interface LoadOptions {
  requests: number;
  concurrency: number;
  token?: string;
  /** Request headers besides host and authorization (Accept-Encoding for a compressed document). */
  headers?: Record<string, string>;
  /** A performance.now() time after which no new request is sent (a timed run: `requests` then only caps it). */
  until?: number;
  /** The server process's CPU time so far, ns (read before and after each burst, outside its timing). */
  serverCpuNs?: () => number;
}

interface Burst {
  latencies: number[];
  seconds: number;
  failures: number;
  serverNs: number;
  clientUs: number;
}

/**
 * A small closed-loop load generator: `concurrency` keep-alive HTTP/1.1 connections, each sending its
 * next GET as soon as the previous answer is read, on raw sockets (like autocannon, which the issue
 * measured with): node:http's client cost the load generator's core more per request than the
 * server spent on the bare route, and far more on a 200 KB document, so the rows measured the
 * client. It reads the status, Content-Length (every answer here has one) and the body's bytes.
 * Runs in the bench process; the server is another process.
 */
async function burst(base: string, path: () => string, opts: LoadOptions): Promise<Burst> {
  const url = new URL(base);
  const auth = opts.token ? `authorization: Bearer ${opts.token}\r\n` : '';
  const extra = Object.entries(opts.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const latencies: number[] = [];
  let sent = 0;
  let failures = 0;
  const connection = () =>
    new Promise<void>((done, fail) => {
      const socket = connect(Number(url.port), url.hostname);
      socket.setNoDelay(true);
      let started = 0;
      let head = ''; // the answer's bytes so far while its header is incomplete (latin1: one char a byte)
      let bodyLeft = -1; // -1 until the header is read
      let status = 0;
      const next = () => {
        if (sent >= opts.requests || (opts.until !== undefined && performance.now() >= opts.until)) return void socket.end(done);
        sent += 1;
        started = performance.now();
        head = '';
        bodyLeft = -1;
        socket.write(`GET ${path()} HTTP/1.1\r\nhost: ${url.host}\r\n${auth}${extra}\r\n`);
      };
      socket.on('connect', next);
      socket.on('error', fail);
      socket.on('data', (chunk: Buffer) => {
        let body = chunk.length;
        if (bodyLeft < 0) {
          const before = head.length;
          head += chunk.toString('latin1');
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) return;
          status = Number(head.slice(9, 12));
          const length = /\r\ncontent-length: *(\d+)/i.exec(head.slice(0, end));
          if (!length) return fail(new Error(`an answer to ${url.host} without Content-Length`));
          bodyLeft = Number(length[1]);
          body = chunk.length - (end + 4 - before);
        }
        bodyLeft -= body;
        if (bodyLeft > 0) return;
        latencies.push(performance.now() - started);
        if (status !== 200) failures += 1;
        next();
      });
    });
  const serverBefore = opts.serverCpuNs?.() ?? 0;
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: opts.concurrency }, connection));
  const seconds = (performance.now() - started) / 1000;
  const client = process.cpuUsage(clientBefore);
  return { latencies, seconds, failures, serverNs: (opts.serverCpuNs?.() ?? 0) - serverBefore, clientUs: client.user + client.system };
}

function result(bursts: readonly Burst[]): LoadResult {
  const latencies = bursts.flatMap((b) => b.latencies).sort((a, b) => a - b);
  const sum = (f: (b: Burst) => number) => bursts.reduce((s, b) => s + f(b), 0);
  const seconds = sum((b) => b.seconds);
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures: sum((b) => b.failures),
    serverUsPerRequest: sum((b) => b.serverNs) / 1000 / latencies.length,
    clientBusy: sum((b) => b.clientUs) / 1e6 / seconds,
  };
}

export async function load(base: string, path: () => string, opts: LoadOptions): Promise<LoadResult> {
  return result([await burst(base, path, opts)]);
}

/**
 * A read and the baseline measured in alternating rounds (baseline, read, baseline, read, …), each
 * side's rate its requests over its own time: the machine's speed drifts over a run (this VM's bare
 * route moved between 2,500 and 4,600 req/s from one measurement to the next), and rounds a few
 * hundred milliseconds apart see the same machine, so the ratio measures the read, not the drift.
 */
export async function paired(base: string, path: () => string, baseline: () => string, opts: LoadOptions & { rounds: number }): Promise<{ read: LoadResult; bare: LoadResult }> {
  const per = { ...opts, requests: Math.ceil(opts.requests / opts.rounds) };
  const read: Burst[] = [];
  const bare: Burst[] = [];
  for (let r = 0; r < opts.rounds; r += 1) {
    // ABBA order: neither side always runs first (after the other's connections close).
    if (r % 2 === 0) bare.push(await burst(base, baseline, per));
    read.push(await burst(base, path, per));
    if (r % 2 === 1) bare.push(await burst(base, baseline, per));
  }
  return { read: result(read), bare: result(bare) };
}
