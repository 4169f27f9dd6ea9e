import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StoredAnalysis } from '../../src/chess/engineOutput.js';
import { packageRoot } from '../../src/paths.js';
import { ownerOrNamed } from '../../src/services/accounts/accounts.js';
import { engineOutput } from '../../src/services/review/records.js';
import { openStore, storeFile } from '../../src/store/db.js';

/**
 * Review workers as a player runs them (issue 36), for the benchmarks: the shipped CLI (dist/, as `npm ci` leaves it)
 * running `serve --engines 0` on a data dir, worker keys made with `worker-key create`, reviews asked over REST
 * with the owner's token, and `chess-footprint worker` processes taking them over the fishnet protocol.
 */

const BIN = join(packageRoot, 'bin/chess-footprint.js');

/** Runs a CLI command to its end; its stdout. */
export async function cliRun(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, maxBuffer: 1 << 24 });
  return stdout;
}

/** The last non-empty stdout line: where `init`, `demo`, `token create` and `worker-key create` print their secret. */
export const lastLine = (out: string) => out.trim().split('\n').pop()!.trim();

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** `serve --engines 0` on `dataDir` (no local engine: every review waits for a worker), to its listening line; `port` 0 for any free one. */
export async function serveForWorkers(dataDir: string, env: NodeJS.ProcessEnv, port = 0): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--engines', '0', '--data-dir', dataDir, '--port', String(port)], {
    env: { ...process.env, CFP_RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening: ${out}`)));
  });
  return { child, url };
}

/** `chess-footprint worker` with its own engines; its job lines go to `log`. */
export function startWorker(url: string, key: string, opts: { engines?: number; engine?: string; log?: (line: string) => void } = {}): ChildProcess {
  const args = [BIN, 'worker', '--server', url, '--engines', String(opts.engines ?? 1), ...(opts.engine ? ['--engine', opts.engine] : [])];
  // The key in the environment, never on the command line (issue 44 item 7).
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, CFP_WORKER_KEY: key } });
  let rest = '';
  child.stdout!.on('data', (d: Buffer) => {
    rest += d.toString();
    const lines = rest.split('\n');
    rest = lines.pop()!;
    for (const l of lines) opts.log?.(l);
  });
  return child;
}

/** Asks the server to review each game (REST request_game_review with the owner's token); throws on any refusal. */
export async function requestReviews(url: string, token: string, gameIds: readonly string[]): Promise<void> {
  for (const id of gameIds) {
    const res = await fetch(`${url}/api/v1/me/games/${encodeURIComponent(id)}/review`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    if (res.status >= 300) throw new Error(`review request for ${id}: ${res.status} ${await res.text()}`);
  }
}

/**
 * The owner's games with moves and no review yet: those already queued first (`demo` queues a few, and a worker would
 * take them whatever is measured), then the newest. Id and movesKey.
 */
export function unreviewedGames(dataDir: string, limit: number): Array<{ id: string; movesKey: string }> {
  const store = openStore(storeFile(dataDir));
  try {
    return store.sqlite
      .prepare(
        `SELECT g.id AS id, g.moves_key AS movesKey FROM games g
          WHERE g.moves_source = 'pgn' AND g.moves_key IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM analyses a WHERE a.user_id = g.user_id AND a.moves_key = g.moves_key)
          ORDER BY EXISTS (SELECT 1 FROM review_jobs j WHERE j.user_id = g.user_id AND j.moves_key = g.moves_key AND j.status IN ('queued', 'running')) DESC,
                   g.played_at DESC
          LIMIT ?`,
      )
      .all(limit) as Array<{ id: string; movesKey: string }>;
  } finally {
    store.close();
  }
}

/** Polls the store until the owner (its first account) has a stored review of every move sequence, or `timeoutMs` passes. */
export async function reviewsOf(dataDir: string, movesKeys: readonly string[], timeoutMs: number): Promise<Map<string, StoredAnalysis>> {
  const store = openStore(storeFile(dataDir));
  const found = new Map<string, StoredAnalysis>();
  const owner = ownerOrNamed(store);
  if (!owner) throw new Error(`no account in ${dataDir}`);
  const end = Date.now() + timeoutMs;
  try {
    while (found.size < movesKeys.length) {
      for (const k of movesKeys) {
        if (found.has(k)) continue;
        const a = engineOutput(store, owner.id, k);
        if (a) found.set(k, a);
      }
      if (found.size === movesKeys.length) break;
      if (Date.now() > end) throw new Error(`${movesKeys.length - found.size} of ${movesKeys.length} reviews not stored within ${Math.round(timeoutMs / 1000)} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    store.close();
  }
  return found;
}
