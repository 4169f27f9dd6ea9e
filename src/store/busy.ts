import type { Store } from './db.js';

/**
 * How long a serving process (`serve`, `mcp`) waits for a write lock another process holds.
 * better-sqlite3 waits synchronously, on the event loop: the store's own 5 s busy_timeout would freeze
 * every request and timer of the process for as long. A serving process waits this long instead and
 * then answers 503 (a request) or tries again later (a background loop); one-shot CLI commands keep
 * the longer wait, having nothing else to serve.
 */
export const SERVING_BUSY_MS = 50;

/** Sets the short lock wait on a serving process's connection. */
export function useServingBusyTimeout(store: Store): void {
  store.sqlite.pragma(`busy_timeout = ${SERVING_BUSY_MS}`);
}

/**
 * Whether an error is SQLite's "another connection holds the lock" (SQLITE_BUSY and its extended
 * codes, e.g. SQLITE_BUSY_SNAPSHOT; SQLITE_LOCKED for a lock within the process): nothing of the
 * statement or its transaction was written, so the caller may say so and try again.
 */
export function isStoreBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * Runs a best-effort write without waiting for another process's write lock: SQLite's busy handler is
 * off for it (busy_timeout 0, applied when a statement is compiled, hence pragma() each time), so a held
 * lock costs a failed attempt, not SQLITE_BUSY's wait on the event loop. Returns whether it ran; a busy
 * store is false, any other failure is thrown.
 */
export function tryWithoutWaiting(store: Store, write: () => void): boolean {
  const was = Number(store.sqlite.pragma('busy_timeout', { simple: true }));
  try {
    store.sqlite.pragma('busy_timeout = 0');
    write();
    return true;
  } catch (err) {
    if (isStoreBusy(err)) return false;
    throw err;
  } finally {
    store.sqlite.pragma(`busy_timeout = ${was}`);
  }
}
