import type { Store } from '../../store/db.js';
import { claimLease, heldElsewhere, keepLease, type LeaseTable } from '../common/index.js';
import { leaseProcessGone } from '../review/index.js';

/**
 * One opening-explorer request at a time per store, across processes (issue 44 item 7): `serve` and `mcp` over
 * stdio on one data folder each take lichess's turn in their own process (common/siteTurns.ts), so the turn
 * alone let both ask the explorer at once. The store's `explorer_lease` row (migration 0018) is the lock between
 * processes (common/storeLease.ts): a holder claims it before each request and renews it while the request runs;
 * a claim whose time passed is free, so a process that died (kill -9) holds nothing for longer than LEASE_MS.
 */
export const LEASE_MS = 30_000;
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
  const letGo = keepLease(store, EXPLORER, ONE, holder, LEASE_MS);
  try {
    return await work();
  } finally {
    letGo();
  }
}

/**
 * One run of an owner's view at a time per store, across processes (issue 44 item 7): each process joins only its own
 * runs, so two reading one owner's peers at once each started one and each charged the `scout` bucket for the same
 * work (found by `npm run bench -- sweep`, sweepExplorer.ts). The `explorer_run_lease` row (migration 0020) names the
 * runner of a run key: claimed when the run starts, renewed while it runs, released when it ends. Another process reads
 * it as "being fetched" and starts nothing; a claim of a process of this machine that exited is free at once.
 */
const RUN: LeaseTable = { table: 'explorer_run_lease', key: 'run_key' };

/** What a view being fetched by another process says. */
export const EXPLORER_ELSEWHERE = 'Being fetched from lichess by another process on this data folder (a server, or an MCP client over stdio), one position at a time: read again for the rest.';

/** Claims the run for `holder`; false while another live runner holds it. */
export const claimRun = (store: Store, runKey: string, holder: string): boolean => claimLease(store, RUN, runKey, holder, LEASE_MS, leaseProcessGone);

/** Whether another live runner holds the run now. */
export const runElsewhere = (store: Store, runKey: string, holder: string): boolean => heldElsewhere(store, RUN, runKey, holder, leaseProcessGone);

/** Keeps a claimed run's lease renewed while it runs; the function returned lets it go. */
export const keepRun = (store: Store, runKey: string, holder: string): (() => void) => keepLease(store, RUN, runKey, holder, LEASE_MS, leaseProcessGone);
