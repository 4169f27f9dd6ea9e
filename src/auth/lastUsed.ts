import type { Store } from '../store/db.js';
import { tryWithoutWaiting } from '../store/busy.js';

/** `last_used_at` is written at most this often per credential: it says "in use lately", not "this request". */
export const LAST_USED_RESOLUTION_MS = 60_000;
const lastStamped = new WeakMap<Store, Map<string, number>>();

/**
 * Stamps a credential's `last_used_at` (a token's or a session's) after the current request's work
 * (setImmediate), and only when this process's previous stamp of it is a minute old: a busy agent or
 * an open dashboard costs one small write a minute, and a read stays a read on the request path. It never
 * waits for another process's write lock (issue 37, item 9: the wait is synchronous, on the event loop):
 * when the store is busy the stamp is skipped and a later request of the credential tries again.
 */
export function stampLastUsed(store: Store, credential: string, now: Date, write: () => void): void {
  let seen = lastStamped.get(store);
  if (!seen) lastStamped.set(store, (seen = new Map()));
  const last = seen.get(credential);
  if (last !== undefined && now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
  seen.set(credential, now.getTime());
  setImmediate(() => {
    try {
      if (!tryWithoutWaiting(store, write)) seen.delete(credential);
    } catch {
      // The store was closed in between (shutdown): the stamp is best-effort by design.
    }
  }).unref();
}
