import { Agent, request } from 'node:http';
import { percentile } from './table.js';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

interface LoadOptions {
  requests: number;
  concurrency: number;
  token?: string;
}

interface Burst {
  latencies: number[];
  seconds: number;
  failures: number;
}

/**
 * A small closed-loop load generator: `concurrency` keep-alive connections (node:http, like
 * autocannon's default of 10), each sending its next GET as soon as the previous answer is read.
 * Runs in the bench process; the server is another process.
 */
async function burst(base: string, path: () => string, opts: LoadOptions): Promise<Burst> {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const headers = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
  const latencies: number[] = [];
  let sent = 0;
  let failures = 0;
  const one = (p: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: p, agent, headers }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (sent < opts.requests) {
        sent += 1;
        const t = performance.now();
        const status = await one(path());
        latencies.push(performance.now() - t);
        if (status !== 200) failures += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { latencies, seconds, failures };
}

function result(bursts: readonly Burst[]): LoadResult {
  const latencies = bursts.flatMap((b) => b.latencies).sort((a, b) => a - b);
  const seconds = bursts.reduce((s, b) => s + b.seconds, 0);
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures: bursts.reduce((s, b) => s + b.failures, 0) };
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
