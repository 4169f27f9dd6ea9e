import type { Store } from '../store/db.js';

/** `last_used_at` is written at most this often per credential: it says "in use lately", not "this request". */
export const LAST_USED_RESOLUTION_MS = 60_000;
const lastStamped = new WeakMap<Store, Map<string, number>>();

/**
 * Stamps a credential's `last_used_at` (a token's or a session's) after the current request's work
 * (setImmediate), and only when this process's previous stamp of it is a minute old: a busy agent or
 * an open dashboard costs one small write a minute, and a read stays a read on the request path.
 */
export function stampLastUsed(store: Store, credential: string, now: Date, write: () => void): void {
  let seen = lastStamped.get(store);
  if (!seen) lastStamped.set(store, (seen = new Map()));
  const last = seen.get(credential);
  if (last !== undefined && now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
  seen.set(credential, now.getTime());
  setImmediate(() => {
    try {
      write();
    } catch {
      // The store was closed in between (shutdown): the stamp is best-effort by design.
    }
  }).unref();
}
