import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Store } from '../../store/db.js';

/**
 * A claim on a piece of work kept in the store, so that processes on one data folder (`serve` and `mcp` over stdio
 * each run their own runners) take turns (issue 44 item 7): a row of `table` keyed by `key` names its holder and until
 * when (epoch ms, real time: a lease is about processes alive now) the claim holds. A holder claims, renews while it
 * works and releases when done; a claim past its time is free, so a process that died holds nothing for longer than
 * its lease. The explorer's one request at a time (`explorer_lease`) and an explorer run (`explorer_run_lease`, both
 * peers/explorerLease.ts), and a scout's fetch (`scout_lease`, prep/scoutLease.ts) are such leases.
 */
export interface LeaseTable {
  table: 'explorer_lease' | 'explorer_run_lease' | 'scout_lease';
  key: 'id' | 'run_key' | 'scout_id';
}

/** A runner's name on leases: this machine, this process, and which runner of it (`host:pid:nonce`). */
export const leaseHolder = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * Claims `key` for `holder` until `ms` from now (or renews its own claim); false while another holder's claim runs.
 * `gone` frees a claim early whose holder is known to have ended (a process of this machine that exited).
 */
export function claimLease(store: Store, t: LeaseTable, key: string | number, holder: string, ms: number, gone?: (holder: string) => boolean): boolean {
  const now = Date.now();
  try {
    const claimed =
      store.sqlite
        .prepare(
          `INSERT INTO ${t.table} (${t.key}, holder, expires_at) VALUES (?, ?, ?)
           ON CONFLICT(${t.key}) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
           WHERE ${t.table}.holder = excluded.holder OR ${t.table}.expires_at < ?`,
        )
        .run(key, holder, now + ms, now).changes === 1;
    if (claimed || !gone) return claimed;
    const other = leaseHolderOf(store, t, key);
    // Taken over only if it is still that holder's: another process may have freed it first.
    return other !== null && gone(other) && store.sqlite.prepare(`UPDATE ${t.table} SET holder = ?, expires_at = ? WHERE ${t.key} = ? AND holder = ?`).run(holder, now + ms, key, other).changes === 1;
  } catch {
    // The store's write lock is held elsewhere past the serving wait (src/store/busy.ts): not ours yet, ask again.
    return false;
  }
}

/** The holder of a running claim on `key`, or null when none runs. */
export function leaseHolderOf(store: Store, t: LeaseTable, key: string | number): string | null {
  const row = store.sqlite.prepare(`SELECT holder FROM ${t.table} WHERE ${t.key} = ? AND expires_at >= ?`).get(key, Date.now()) as { holder: string } | undefined;
  return row?.holder ?? null;
}

/** Gives up `holder`'s claim on `key`. */
export function releaseLease(store: Store, t: LeaseTable, key: string | number, holder: string): void {
  try {
    store.sqlite.prepare(`DELETE FROM ${t.table} WHERE ${t.key} = ? AND holder = ?`).run(key, holder);
  } catch {
    // Busy or closed: the claim runs out by itself.
  }
}

/**
 * Keeps `holder`'s claim on `key` renewed (every third of `ms`) while its work waits and runs; the function returned
 * lets it go. The timer keeps no process alive.
 */
export function keepLease(store: Store, t: LeaseTable, key: string | number, holder: string, ms: number, gone?: (holder: string) => boolean): () => void {
  const renew = setInterval(() => claimLease(store, t, key, holder, ms, gone), ms / 3);
  renew.unref();
  return () => {
    clearInterval(renew);
    releaseLease(store, t, key, holder);
  };
}

/** Whether another holder, not known to have ended, holds a running claim on `key`. */
export function heldElsewhere(store: Store, t: LeaseTable, key: string | number, holder: string, gone?: (holder: string) => boolean): boolean {
  const other = leaseHolderOf(store, t, key);
  return other !== null && other !== holder && !gone?.(other);
}
