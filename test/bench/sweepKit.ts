import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { movesKey } from '../../src/chess/pgn.js';
import { storeFile } from '../../src/store/db.js';
import { parseExport } from '../helpers/lichessExport.js';
import type { HeldJob } from './sweepFuzz.js';
import { readStore, reviewRows, send, SweptServer, Tally, workerStores } from './sweepRig.js';
import { percentile } from './table.js';
import { cliRun, lastLine } from './workerFleet.js';
import { worstSubmission } from './worstSubmission.js';

/**
 * What the families of the reliability sweep (sweep.ts) share: the owners and the server, the table's row, and the
 * requests and store queries they all make.
 */
export const FIXTURE = new URL('../fixtures/lichess-analysed/games.ndjson', import.meta.url);
export const NODES = 20_000;
/** The per-position lease: a job killed with its worker is free again after this × its positions. */
export const TIMEOUT_MS = 1_000;

export interface Owner {
  id: string;
  email: string;
  token: string;
}

export interface Counted {
  attack: string;
  t: Tally;
  crashes: number;
  lost: number;
  duplicated: number;
  refusedStored: number;
  leaks: number;
  notes: string[];
}

export interface Sweep {
  dir: string;
  server: SweptServer;
  p: Owner;
  q: Owner;
  engine: string | undefined;
}

export const MIB = 1024 * 1024;
/** A row of the table: the crashes are added by run() from the server's own count over the family. */
export const counted = (attack: string, t: Tally, c: Partial<Pick<Counted, 'lost' | 'duplicated' | 'refusedStored' | 'leaks'>>, notes: string[]): Counted => ({
  attack,
  t,
  crashes: 0,
  lost: 0,
  duplicated: 0,
  refusedStored: 0,
  leaks: 0,
  ...c,
  notes,
});
export const rand = (max: number) => Math.floor(Math.random() * max);



export const fishnet = (s: Sweep, t: Tally, key: string, path: string, body?: string | object, contentType = 'application/json') =>
  send(t, `${s.server.url}/fishnet${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body ?? {}) });

export async function workerKey(s: Sweep, owner: Owner, name: string): Promise<{ key: string; id: string }> {
  const key = lastLine(await cliRun(['worker-key', 'create', '--name', name, '--data-dir', s.dir, '--user', owner.email]));
  const db = readStore(s.dir);
  const { id } = db.prepare('SELECT id FROM worker_keys WHERE user_id = ? AND name = ? AND revoked_at IS NULL').get(owner.id, name) as { id: string };
  db.close();
  return { key, id };
}

/**
 * Forgets a key's refusals in a row (the store opened for writing, as the worker-load bench does), so that each fuzzed
 * case meets a job rather than the 429 a key refused twice gets (issue 44 item 1); that back-off is the long-PV row's.
 */
export function forgetRefusals(s: Sweep, keyId: string): void {
  const db = new Database(storeFile(s.dir), { timeout: 10_000 });
  try {
    db.prepare('UPDATE worker_keys SET failures = 0, failed_at = NULL WHERE id = ?').run(keyId);
  } finally {
    db.close();
  }
}

/** Asks for the review of each game over REST, with the owner's token. */
export async function requestReviews(s: Sweep, t: Tally, owner: Owner, gameIds: readonly string[]): Promise<void> {
  for (const id of gameIds) {
    const r = await send(t, `${s.server.url}/api/v1/me/games/${encodeURIComponent(id)}/review`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: '{}' });
    if (r.status >= 300) t.undocumented += 1;
  }
}

/** The owner's games with moves, no review and no active job, shortest first. */
export function unreviewed(s: Sweep, owner: Owner, limit: number, where = ''): Array<{ id: string; movesKey: string }> {
  const db = readStore(s.dir);
  try {
    return db
      .prepare(
        `SELECT g.id AS id, g.moves_key AS movesKey FROM games g
          WHERE g.user_id = ? AND g.moves_source = 'pgn' AND g.moves_key IS NOT NULL ${where}
            AND NOT EXISTS (SELECT 1 FROM analyses a WHERE a.user_id = g.user_id AND a.moves_key = g.moves_key)
            AND NOT EXISTS (SELECT 1 FROM review_jobs j WHERE j.user_id = g.user_id AND j.moves_key = g.moves_key AND j.status IN ('queued', 'running'))
          ORDER BY g.moves_count ASC, g.id LIMIT ?`,
      )
      .all(owner.id, limit) as Array<{ id: string; movesKey: string }>;
  } finally {
    db.close();
  }
}

/** The owner's reads (list_games), one after another, until stopped: their tally and times. */
export function ownerReads(s: Sweep, owner: Owner) {
  const t = new Tally();
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const r = await send(t, `${s.server.url}/api/v1/me/games?page=1`, { headers: { authorization: `Bearer ${owner.token}` } });
      if (r.status !== 200) t.undocumented += 1;
      times.push(r.ms);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      times.sort((a, b) => a - b);
      return { t, note: `${owner === s.p ? 'P' : 'Q'}'s list_games meanwhile: ${t.requests} reads, ${t.statuses.get('200') ?? 0} answered 200, p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${(times.at(-1) ?? 0).toFixed(0)} ms` };
    },
  };
}

/** Imports games (SAN move lists) for Q through the CLI, tagged with `event`; their ids and move keys from the store. */
export async function importForQ(s: Sweep, games: string[][], event: string): Promise<Array<{ id: string; movesKey: string }>> {
  const pgn = games
    .map(
      (san, i) =>
        `[Event "${event}"]\n[Site "?"]\n[Date "2026.${String(1 + (i % 9)).padStart(2, '0')}.${String(1 + (i % 28)).padStart(2, '0')}"]\n[Round "${i + 1}"]\n[White "Q"]\n[Black "Opponent ${i + 1}"]\n[Result "1/2-1/2"]\n\n` +
        `${san.map((m, k) => (k % 2 === 0 ? `${k / 2 + 1}. ${m}` : m)).join(' ')} 1/2-1/2\n`,
    )
    .join('\n');
  const file = join(s.dir, `${event.replace(/\W+/g, '-')}.pgn`);
  writeFileSync(file, pgn);
  await cliRun(['import', file, '--as', 'Q', '--data-dir', s.dir, '--user', s.q.email]);
  return unreviewed(s, s.q, games.length, `AND g.event = '${event}'`);
}

/** The lichess fixture's games as SAN move lists, longest first. */
export function fixtureGames(): string[][] {
  return parseExport(readFileSync(FIXTURE, 'utf8'))
    .map((g) => g.moves.split(' ').filter(Boolean))
    .sort((a, b) => b.length - a.length);
}

/**
 * The worker-load bench's worst legal submission (every PV 246 plies), its nodes brought within what this server asks
 * (`nodes` at most 2 × CFP_WORKER_NODES, src/chess/workerAnalysis.ts NODE_SLACK), so that only its size is tested.
 * Refused: the last searched entry (one with a PV: a game ending in mate has none at its end) says `{"mate": 0}`.
 */
export const worst = (moves: string[], refused: boolean) => {
  const analysis = worstSubmission(moves, false).analysis.map((e) => e as { pv?: string; nodes?: number; score: object });
  const last = analysis.findLastIndex((e) => e.pv);
  const out = analysis.map((e, i) => ({ ...e, ...(e.nodes === undefined ? {} : { nodes: NODES }), ...(refused && i === last ? { score: { mate: 0 } } : {}) }));
  return JSON.stringify({ stockfish: { flavor: 'nnue' }, analysis: out });
};
export const jobMoves = (job: HeldJob) => (job.moves.trim() ? job.moves.trim().split(' ') : []);
export const keyOf = (job: HeldJob) => movesKey(job.position, jobMoves(job));

/** Reviews acknowledged (expected once) and refused (expected absent): lost, duplicated and refused-yet-stored from the store. */
export function storedCounts(s: Sweep, owner: Owner, acked: Iterable<string>, refused: Iterable<string>) {
  const ackedSet = new Set(acked);
  const refusedOnly = [...new Set(refused)].filter((k) => !ackedSet.has(k));
  const rowsOf = reviewRows(s.dir, owner.id, [...ackedSet, ...refusedOnly]);
  let lost = 0;
  let duplicated = 0;
  let refusedStored = 0;
  for (const k of ackedSet) {
    const n = rowsOf.get(k) ?? 0;
    if (n === 0) lost += 1;
    if (n > 1) duplicated += n - 1;
  }
  for (const k of refusedOnly) if ((rowsOf.get(k) ?? 0) > 0) refusedStored += 1;
  return { lost, duplicated, refusedStored, acked: ackedSet.size, refused: refusedOnly.length };
}

/** A row's store counts: storedCounts', with the extra stores (extraStores) as duplicates. */
export const fromStore = (c: ReturnType<typeof storedCounts>, extra: number) => ({ lost: c.lost, duplicated: c.duplicated + extra, refusedStored: c.refusedStored });

/** The job a key holds under this work id (its lease ends with it), as text to compare: status, lease, heartbeat, progress. */
export function heldJobRow(s: Sweep, workId: string): string {
  const db = readStore(s.dir);
  try {
    const row = db
      .prepare("SELECT status, lease_owner AS lease, heartbeat_at AS hb, progress_done AS done FROM review_jobs WHERE lease_owner IS NOT NULL AND substr(lease_owner, -length(?)) = ?")
      .get(`:${workId}`, `:${workId}`);
    return JSON.stringify(row ?? null);
  } finally {
    db.close();
  }
}

/** Stored submissions past worker reviews since `before` (a submission stored twice). */
export function extraStores(s: Sweep, owner: Owner, before: { jobsDone: number; workerReviews: number }): number {
  const after = workerStores(s.dir, owner.id);
  return Math.max(0, after.jobsDone - before.jobsDone - (after.workerReviews - before.workerReviews));
}
