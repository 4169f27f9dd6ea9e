import { Agent, request } from 'node:http';
import { percentile } from './table.js';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

/**
 * A small closed-loop load generator: `concurrency` keep-alive connections (node:http, like
 * autocannon's default of 10), each sending its next GET as soon as the previous answer is read.
 * Runs in the bench process; the server is another process.
 */
export async function load(base: string, path: () => string, opts: { requests: number; concurrency: number; token?: string }): Promise<LoadResult> {
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
  latencies.sort((a, b) => a - b);
  return { rps: opts.requests / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures };
}
