import type { Store } from '../../store/db.js';
import { ownerStamp, type OwnerStamp } from '../../store/ownerStamps.js';

/** Results kept per store; the least recently used go first. */
const MAX_ENTRIES = 256;
const memos = new WeakMap<Store, Map<string, { version: string; value: unknown }>>();
const kept = new WeakSet<object>();

/**
 * Whether an answer is a kept result, served again as the same object: worth keeping its encoded
 * JSON beside it (src/http/rest.ts). A fresh answer is encoded once and dropped.
 */
export function isKeptResult(value: unknown): value is object {
  return typeof value === 'object' && value !== null && kept.has(value);
}

/** What a kept result depends on, each with its version in owner_stamps (src/store/ownerStamps.ts). */
const STAMPS = {
  /** games and rating points */
  history: 'version',
  /** the coaching log, focuses, saved positions and quizzes */
  coaching: 'coachingVersion',
  /** the study list's rows and notes, and the owner's review jobs and reviews (a shared analysis re-derived included) */
  study: 'studyVersion',
  /** the user row, tokens and connections */
  account: 'accountVersion',
  /** the repertoires, scouts and scouted games */
  prep: 'prepVersion',
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
): T {
  const kinds = typeof on === 'string' ? [on] : on;
  const stamp = ownerStamp(store, userId);
  const version = kinds.map((k) => stamp[STAMPS[k]]).join('.');
  key = `${kinds.join('+')}\u0000${key}`;
  let memo = memos.get(store);
  if (!memo) memos.set(store, (memo = new Map()));
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
  // A computation kept as its promise (readers arriving meanwhile share it) is dropped if it fails: the readers
  // waiting share that failure, and the next read computes again rather than meeting it until the data changes.
  if (value instanceof Promise) {
    const entries = memo;
    value.catch(() => {
      if (entries.get(k)?.value === value) entries.delete(k);
    });
  }
  if (typeof value === 'object' && value !== null) kept.add(value);
  if (memo.size > MAX_ENTRIES) memo.delete(memo.keys().next().value!);
  return value;
}
