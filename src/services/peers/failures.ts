import { createHash } from 'node:crypto';
import type { Store } from '../../store/db.js';

/**
 * A failed opening-explorer run, stored (issue 44 item 7, table `explorer_fetches`): its reason is shown wherever
 * the owner reads the peers (the resource, the Openings page) and by every process on the store; the next run of
 * the same key waits a back-off that doubles with each failure in a row (1 minute, 2, 4 … at most an hour), and
 * a retry is the same work, so it is not charged to the owner's `scout` bucket again (runs.ts).
 */
export interface ExplorerFailure {
  state: 'error' | 'token-refused';
  message: string;
  failures: number;
  failedAt: string;
  retryAt: string;
  /** sha-256 of the lichess token the explorer refused (never the token): a new token is tried at once. */
  tokenFingerprint: string | null;
}

export const FIRST_BACKOFF_MS = 60_000;
export const MAX_BACKOFF_MS = 60 * 60_000;

/** The wait after `failures` failed runs in a row. */
export const backoffMs = (failures: number): number => Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, failures - 1));

export const tokenFingerprint = (token: string): string => createHash('sha256').update(token).digest('hex');

export function lastFailure(store: Store, runKey: string): ExplorerFailure | null {
  return (
    (store.sqlite
      .prepare('SELECT state, message, failures, failed_at AS failedAt, retry_at AS retryAt, token_fingerprint AS tokenFingerprint FROM explorer_fetches WHERE run_key = ?')
      .get(runKey) as ExplorerFailure | undefined) ?? null
  );
}

/** Records a failed run (one more in a row); returns the stored failure. */
export function recordFailure(store: Store, userId: string, runKey: string, at: Date, state: ExplorerFailure['state'], message: string, token: string | null): ExplorerFailure {
  const failures = (lastFailure(store, runKey)?.failures ?? 0) + 1;
  const row: ExplorerFailure = { state, message, failures, failedAt: at.toISOString(), retryAt: new Date(at.getTime() + backoffMs(failures)).toISOString(), tokenFingerprint: token === null ? null : tokenFingerprint(token) };
  store.sqlite
    .prepare(
      `INSERT INTO explorer_fetches (run_key, user_id, state, message, failures, failed_at, retry_at, token_fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(run_key) DO UPDATE SET state = excluded.state, message = excluded.message, failures = excluded.failures,
         failed_at = excluded.failed_at, retry_at = excluded.retry_at, token_fingerprint = excluded.token_fingerprint`,
    )
    .run(runKey, userId, state, message, failures, row.failedAt, row.retryAt, row.tokenFingerprint);
  return row;
}

/** A run of the key completed: its failures are forgotten. */
export function clearFailure(store: Store, runKey: string): void {
  store.sqlite.prepare('DELETE FROM explorer_fetches WHERE run_key = ?').run(runKey);
}

/** What the owner's failures stamp a cached view with: each key, its count, and whether its wait is over. */
export function failureStamp(store: Store, userId: string, now: Date): string {
  const rows = store.sqlite.prepare('SELECT run_key AS k, failures AS n, retry_at AS at FROM explorer_fetches WHERE user_id = ? ORDER BY run_key').all(userId) as Array<{ k: string; n: number; at: string }>;
  const iso = now.toISOString();
  return rows.map((r) => `${r.k}:${r.n}:${r.at <= iso ? 'due' : 'waiting'}`).join('|');
}
