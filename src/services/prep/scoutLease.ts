import type { Store } from '../../store/db.js';
import { claimLease, heldElsewhere, keepLease, type LeaseTable } from '../common/index.js';
import { leaseProcessGone } from '../review/index.js';

/**
 * One fetch of a scout at a time per store, across processes (issue 44 item 7). `serve` and `mcp` over stdio on one
 * data folder each run their own scout runner, and each runner joins only its own fetches: two processes reading a
 * player at once both fetched it (two requests at the site at once, and a refresh charged twice). The `scout_lease`
 * row (migration 0019, common/storeLease.ts) names the runner fetching the scout: claimed when its fetch is queued,
 * renewed while it waits and runs, released when it ends. Another process reads it as "being fetched" and starts
 * nothing; a claim runs out SCOUT_LEASE_MS after its last renewal, and one of a process of this machine that exited
 * (kill -9, a stdio client gone) is free at once (review's leaseProcessGone), so the next read resumes the scout.
 */
export const SCOUT_LEASE_MS = 30_000;
const SCOUT: LeaseTable = { table: 'scout_lease', key: 'scout_id' };

/** What a scout being fetched by another process says. */
export const SCOUT_ELSEWHERE = 'Being fetched by another process on this data folder (a server, or an MCP client over stdio); read the player again for its games.';

/** Claims the scout's fetch for `holder` (or renews its claim); false while another live runner holds it. */
export const claimScout = (store: Store, scoutId: string, holder: string): boolean => claimLease(store, SCOUT, scoutId, holder, SCOUT_LEASE_MS, leaseProcessGone);

/** Whether another runner, alive, holds the scout's fetch now. */
export const fetchedElsewhere = (store: Store, scoutId: string, holder: string): boolean => heldElsewhere(store, SCOUT, scoutId, holder, leaseProcessGone);

/** Keeps a claimed scout's lease renewed while its fetch waits for the site's turn and runs; the function returned lets it go. */
export const keepScout = (store: Store, scoutId: string, holder: string): (() => void) => keepLease(store, SCOUT, scoutId, holder, SCOUT_LEASE_MS, leaseProcessGone);
