import type { Store } from '../../store/db.js';

/**
 * One opening-explorer request at a time per store, across processes (issue 44 item 7): `serve` and `mcp` over
 * stdio on one data folder each take lichess's turn in their own process (common/siteTurns.ts), so the turn
 * alone let both ask the explorer at once. The store's `explorer_lease` row (migration 0018) is the lock between
 * processes: a holder claims it before each request and renews it while the request runs; a claim whose time
 * passed is free, so a process that died (kill -9) holds nothing for longer than LEASE_MS. Real time, not the
 * app's clock: a lease is about processes alive now.
 */
export const LEASE_MS = 30_000;
const RENEW_MS = 10_000;
const POLL_MS = 100;

/** Claims the lease for `holder` (or keeps it); false while another holder's claim runs. */
function claim(store: Store, holder: string): boolean {
  const now = Date.now();
  try {
    return (
      store.sqlite
        .prepare(
          `INSERT INTO explorer_lease (id, holder, expires_at) VALUES (1, ?, ?)
           ON CONFLICT(id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
           WHERE explorer_lease.holder = excluded.holder OR explorer_lease.expires_at < ?`,
        )
        .run(holder, now + LEASE_MS, now).changes === 1
    );
  } catch {
    // The store's write lock is held elsewhere past the serving wait (src/store/busy.ts): not ours yet, ask again.
    return false;
  }
}

function release(store: Store, holder: string): void {
  try {
    store.sqlite.prepare('DELETE FROM explorer_lease WHERE id = 1 AND holder = ?').run(holder);
  } catch {
    // Busy: the claim runs out by itself within LEASE_MS.
  }
}

/** Runs `work` (one explorer request) holding the store's explorer lease; waits for it while another process holds it. */
export async function withExplorerLease<T>(store: Store, holder: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  while (!claim(store, holder)) {
    signal.throwIfAborted();
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const renew = setInterval(() => claim(store, holder), RENEW_MS);
  renew.unref();
  try {
    return await work();
  } finally {
    clearInterval(renew);
    release(store, holder);
  }
}
