import type { Store } from '../../store/db.js';
import { claimLease, releaseLease, type LeaseTable } from '../common/index.js';

/**
 * One opening-explorer request at a time per store, across processes (issue 44 item 7): `serve` and `mcp` over
 * stdio on one data folder each take lichess's turn in their own process (common/siteTurns.ts), so the turn
 * alone let both ask the explorer at once. The store's `explorer_lease` row (migration 0018) is the lock between
 * processes (common/storeLease.ts): a holder claims it before each request and renews it while the request runs;
 * a claim whose time passed is free, so a process that died (kill -9) holds nothing for longer than LEASE_MS.
 */
export const LEASE_MS = 30_000;
const RENEW_MS = 10_000;
const POLL_MS = 100;
const EXPLORER: LeaseTable = { table: 'explorer_lease', key: 'id' };
/** The single row's id: one lease for the whole store. */
const ONE = 1;

/** Runs `work` (one explorer request) holding the store's explorer lease; waits for it while another process holds it. */
export async function withExplorerLease<T>(store: Store, holder: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  while (!claimLease(store, EXPLORER, ONE, holder, LEASE_MS)) {
    signal.throwIfAborted();
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const renew = setInterval(() => claimLease(store, EXPLORER, ONE, holder, LEASE_MS), RENEW_MS);
  renew.unref();
  try {
    return await work();
  } finally {
    clearInterval(renew);
    releaseLease(store, EXPLORER, ONE, holder);
  }
}
