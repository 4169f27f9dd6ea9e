import type { ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer } from 'node:net';
import Database from 'better-sqlite3';
import { storeFile } from '../../src/store/db.js';
import { serveForWorkers } from './workerFleet.js';

/**
 * What the reliability sweep (sweep.ts) counts with: the shipped server as a process it can kill and start again on
 * the same port (so a running `chess-footprint worker` finds it again), a /health watch, a tally of every answer, and
 * read-only queries of the store itself.
 */

/** Counts of the answers one family of the sweep got. */
export class Tally {
  requests = 0;
  ok = 0;
  client = 0;
  server = 0;
  /** The connection failed or closed before any status (refused, reset, timed out). */
  unanswered = 0;
  /** Each status (or error code) and how often. */
  readonly statuses = new Map<string, number>();
  /** Answers other than the protocol documents for what was sent. */
  undocumented = 0;

  note(status: number | string): void {
    this.requests += 1;
    this.statuses.set(String(status), (this.statuses.get(String(status)) ?? 0) + 1);
    if (typeof status === 'string') this.unanswered += 1;
    else if (status >= 500) this.server += 1;
    else if (status >= 400) this.client += 1;
    else this.ok += 1;
  }

  merge(other: Tally): void {
    this.requests += other.requests;
    this.ok += other.ok;
    this.client += other.client;
    this.server += other.server;
    this.unanswered += other.unanswered;
    this.undocumented += other.undocumented;
    for (const [k, n] of other.statuses) this.statuses.set(k, (this.statuses.get(k) ?? 0) + n);
  }

  /** "204 ×3, 400 ×120, …" */
  summary(): string {
    return [...this.statuses].sort().map(([s, n]) => `${s} ×${n}`).join(', ');
  }
}

/** A fetch whose answer is tallied: the status and the body's text, or `status` 0 with the error code. */
export async function send(t: Tally, url: string, init: RequestInit = {}): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    t.note(res.status);
    return { status: res.status, text, ms: performance.now() - started };
  } catch (err) {
    const e = err as { cause?: { code?: string }; name?: string };
    t.note(e.cause?.code ?? e.name ?? 'error');
    return { status: 0, text: '', ms: performance.now() - started };
  }
}

/**
 * A raw request through node:http (the body written whether or not the server has answered, as a stranger's client
 * does): its status, or the error code when the connection closed first.
 */
export function sendRaw(t: Tally, url: string, method: string, path: string, headers: Record<string, string>, body: Buffer, chunked: boolean): Promise<number | string> {
  const base = new URL(url);
  return new Promise((done) => {
    const finish = (s: number | string) => {
      t.note(s);
      done(s);
    };
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers, ...(chunked ? {} : { 'content-length': String(body.length) }) };
    const req = request({ host: base.hostname, port: base.port, method, path, headers: h, agent: false }, (res) => {
      res.resume();
      res.on('end', () => finish(res.statusCode ?? 'no-status'));
      res.on('error', () => finish(res.statusCode ?? 'no-status'));
    });
    req.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? 'error'));
    req.write(body);
    req.end();
  });
}

/**
 * A counting proxy in front of the server, for a client whose requests the sweep does not make itself (the real
 * `chess-footprint worker`): each request forwarded as is, its answer's status tallied. When the server is down or
 * killed mid-answer, the client's connection is destroyed without an answer, as the server's own would be.
 */
export function countingProxy(target: () => string, t: Tally): Promise<{ url: string; close: () => Promise<void> }> {
  const proxy: Server = createHttpServer((req, res) => {
    const to = new URL(target());
    const up = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers, agent: false }, (answer) => {
      t.note(answer.statusCode ?? 'no-status');
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    up.on('error', (e: NodeJS.ErrnoException) => {
      if (!res.headersSent) t.note(e.code ?? 'error');
      res.destroy();
    });
    req.pipe(up);
  });
  return new Promise((resolve) => {
    proxy.listen(0, '127.0.0.1', () => {
      const { port } = proxy.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => (proxy.closeAllConnections(), proxy.close(() => r()))) });
    });
  });
}

/** A free TCP port on the loopback (asked of the kernel, then released for the server to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * `serve --engines 0` (the shipped build) on one data dir and one port, killed with SIGKILL and started again at will.
 * A crash is an exit nobody asked for, or /health unanswered for 5 s (polled every second) while the server is meant to
 * be up; answers lost because the sweep killed the server are not.
 */
export class SweptServer {
  child: ChildProcess | null = null;
  url = '';
  exits = 0;
  healthFailures = 0;
  healthChecks = 0;
  private generation = 0;
  private up = false;
  private watching = true;
  private readonly watch: Promise<void>;

  constructor(
    readonly dir: string,
    readonly port: number,
    readonly env: NodeJS.ProcessEnv,
  ) {
    this.watch = this.watchHealth();
  }

  get crashes(): number {
    return this.exits + this.healthFailures;
  }

  async start(): Promise<void> {
    const s = await serveForWorkers(this.dir, this.env, this.port);
    this.child = s.child;
    this.url = s.url;
    const generation = ++this.generation;
    s.child.once('exit', () => {
      if (this.up && this.generation === generation) this.exits += 1;
      if (this.generation === generation) this.up = false;
    });
    this.up = true;
  }

  /** SIGKILL, to its exit (the kernel has closed its port and its store handles). */
  kill9(): Promise<void> {
    return this.end('SIGKILL');
  }

  async stop(): Promise<void> {
    this.watching = false;
    await this.watch;
    await this.end('SIGTERM');
  }

  /** Sends the signal and waits for the exit, which is then not counted as a crash. */
  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.up = false;
    this.generation += 1;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }

  private async watchHealth(): Promise<void> {
    while (this.watching) {
      await new Promise((r) => setTimeout(r, 1000));
      if (!this.up) continue;
      const generation = this.generation;
      let ok = false;
      try {
        const res = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        ok = res.status === 200;
      } catch {
        ok = false;
      }
      // A check that failed because the sweep killed the server meanwhile is not the server's failure.
      if (generation !== this.generation || !this.up) continue;
      this.healthChecks += 1;
      if (!ok) this.healthFailures += 1;
    }
  }
}

/** The store opened read-only (better-sqlite3), for counting what the server stored. */
export function readStore(dir: string): Database.Database {
  return new Database(storeFile(dir), { readonly: true, fileMustExist: true });
}

/** Rows of `analyses` (the owner's reviews) for each of these move sequences: 0 absent, 1 stored once, more duplicated. */
export function reviewRows(dir: string, userId: string, movesKeys: Iterable<string>): Map<string, number> {
  const db = readStore(dir);
  try {
    const keys = [...new Set(movesKeys)];
    const found = db
      .prepare('SELECT moves_key AS k, count(*) AS n FROM analyses WHERE user_id = ? AND moves_key IN (SELECT value FROM json_each(?)) GROUP BY moves_key')
      .all(userId, JSON.stringify(keys)) as Array<{ k: string; n: number }>;
    const out = new Map(keys.map((k) => [k, 0]));
    for (const r of found) out.set(r.k, r.n);
    return out;
  } finally {
    db.close();
  }
}

/**
 * The owner's stores by workers, counted twice over: the keys' `jobs_done` (one per stored submission) and the
 * reviews whose payload names a worker. A submission stored twice shows as jobs done past worker reviews.
 */
export function workerStores(dir: string, userId: string): { jobsDone: number; workerReviews: number } {
  const db = readStore(dir);
  try {
    const { jobsDone } = db.prepare('SELECT coalesce(sum(jobs_done), 0) AS jobsDone FROM worker_keys WHERE user_id = ?').get(userId) as { jobsDone: number };
    const { workerReviews } = db.prepare("SELECT count(*) AS workerReviews FROM analyses WHERE user_id = ? AND json_extract(payload, '$.worker') IS NOT NULL").get(userId) as { workerReviews: number };
    return { jobsDone, workerReviews };
  } finally {
    db.close();
  }
}
