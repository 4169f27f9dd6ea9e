import type { Store } from '../store/db.js';
import { ownerStamp, type OwnerStamp } from '../store/ownerStamps.js';

/**
 * Results kept per store, in pools of their own size, the least recently used going first: the
 * details of single games an agent or the dashboard opens come and go far more often than the
 * aggregates over a whole history, and must not push those (a 10,000-game recomputation) out.
 */
const POOLS = { aggregates: 256, games: 512 } as const;
type Pool = keyof typeof POOLS;
const memos = new WeakMap<Store, Record<Pool, Map<string, { version: string; value: unknown }>>>();

/** What a kept result depends on, each with its version in owner_stamps (src/store/ownerStamps.ts). */
const STAMPS = {
  /** games and rating points */
  history: 'version',
  /** the coaching log, focuses, saved positions and quizzes */
  coaching: 'coachingVersion',
  /** the study list's rows and notes, and the owner's review jobs and reviews (shared analyses re-derived included) */
  study: 'studyVersion',
  /** the user row, tokens and connections */
  account: 'accountVersion',
} as const satisfies Record<string, keyof OwnerStamp>;
export type StampKind = keyof typeof STAMPS;

/**
 * A result derived from the owner's whole history (aggregates over 10,000 games, totals of a
 * filtered list), computed once per version of their data and served from memory until any of their
 * games or rating points change, in this process or another (the version is kept by triggers).
 * The version is read before computing, so a write that lands during the computation only makes
 * the next read compute again; a stale result is never served.
 *
 * `key` must name everything else the result depends on (the input, and today's date if the result
 * uses the clock). Values are shared between callers: treat them as read-only.
 */
export function memoByOwner<T>(
  store: Store,
  userId: string,
  key: string,
  compute: () => T,
  on: StampKind | readonly StampKind[] = 'history',
  pool: Pool = 'aggregates',
): T {
  const kinds = typeof on === 'string' ? [on] : on;
  const stamp = ownerStamp(store, userId);
  const version = kinds.map((k) => stamp[STAMPS[k]]).join('.');
  key = `${kinds.join('+')}\u0000${key}`;
  let pools = memos.get(store);
  if (!pools) memos.set(store, (pools = { aggregates: new Map(), games: new Map() }));
  const memo = pools[pool];
  const k = `${userId}\u0000${key}`;
  const hit = memo.get(k);
  if (hit) {
    memo.delete(k);
    if (hit.version === version) {
      memo.set(k, hit);
      return hit.value as T;
    }
  }
  const value = compute();
  memo.set(k, { version, value });
  if (memo.size > POOLS[pool]) memo.delete(memo.keys().next().value!);
  return value;
}
