import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { storeFile } from '../../src/store/db.js';
import { buildBenchStore } from './benchStore.js';
import { startBenchServer, stopBenchServer } from './benchServer.js';
import { percentile, type BenchTable } from './table.js';

/**
 * Issue 37, item 9: how long health and reads take while another process holds the store's write lock (a child
 * process in BEGIN IMMEDIATE for the whole case), against the same reads with no lock held. The server is the
 * shipped build (dist/, serveBench.mjs: `serve`'s 50 ms lock wait) with the rate limiter on, so every read takes
 * its bucket; requests go one at a time over keep-alive fetch. The goal: every read within 100 ms.
 */
const REQUESTS = 200;
const PATHS = ['/health', '/api/v1/me', '/api/v1/me/games', '/api/v1/settings/openings/white'];

export async function run(): Promise<BenchTable[]> {
  const { dataDir, token } = await buildBenchStore(2000);
  const server = await startBenchServer(dataDir, { CFP_RATE_LIMITS: 'personal:1000000/60' });
  const rows: Array<[string, string, number, number, number, number, string]> = [];
  try {
    const get = async (path: string) => {
      const t = performance.now();
      const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      return { ms: performance.now() - t, status: res.status };
    };
    for (const path of PATHS) for (let i = 0; i < 20; i += 1) await get(path); // warm: kept results, connections
    for (const held of [false, true]) {
      const holder = held ? await holdLock(storeFile(dataDir)) : null;
      try {
        for (const path of PATHS) {
          const ms: number[] = [];
          let bad = 0;
          for (let i = 0; i < REQUESTS; i += 1) {
            const r = await get(path);
            if (r.status !== 200) bad += 1;
            ms.push(r.ms);
          }
          const s = ms.sort((x, y) => x - y);
          rows.push([held ? 'held by another process' : 'free', path, s.length, round(percentile(s, 50)), round(percentile(s, 99)), round(s[s.length - 1]), bad ? `${bad} not 200` : s[s.length - 1] <= 100 ? 'yes' : 'NO']);
        }
      } finally {
        if (holder) {
          holder.stdin!.end();
          await new Promise((r) => holder.once('exit', r));
        }
      }
    }
  } finally {
    await stopBenchServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return [
    {
      title: "Reads while another process holds the store's write lock (issue 37, item 9), rate limiter on",
      columns: ['write lock', 'read', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'all ≤ 100 ms, 200'],
      rows,
      notes: ['One request at a time; the lock holder is test/http/heldLockChild.ts (BEGIN IMMEDIATE until released); the server is one process (dist/), unpinned.'],
    },
  ];
}

const round = (x: number) => (x >= 10 ? Math.round(x) : Math.round(x * 100) / 100);

function holdLock(file: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../http/heldLockChild.ts'), file], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (d: Buffer) => (d.toString().includes('held') ? resolve(child) : reject(new Error(d.toString()))));
  });
}
