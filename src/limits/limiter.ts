import { ApiError, Messages, rateLimited } from '../errors.js';
import type { Clock } from '../clock.js';
import type { Statement } from 'better-sqlite3';
import type { Store } from '../store/db.js';
import type { Family, RateLimits } from '../config.js';

/** How long a limiter call waits for a store lock held by another connection before answering 503. */
export const LIMITER_BUSY_MS = 50;

export interface Limiter {
  /** Spends one unit of `family` for `subject`; throws 429 when empty, 503 when the limiter cannot be reached. */
  take(family: Family, subject: string): void;
  /** Returns one unit (a queued review that failed to enqueue must not cost the caller). */
  refund(family: Family, subject: string): void;
  readonly enabled: boolean;
}

/**
 * Token buckets in the store. Each take is one BEGIN IMMEDIATE transaction, so concurrent
 * requests (REST and MCP, several processes on one store) never overspend a bucket.
 * A bucket holds `limit` tokens and refills continuously at limit/window.
 * Any failure to read or write the bucket fails closed: 503, and the request does nothing.
 *
 * Bucket writes commit with synchronous=NORMAL instead of the store's FULL: in WAL mode that skips
 * the fsync of every commit (which cost more than the rest of a read), while each commit is still
 * in the WAL before the next transaction starts, so other processes see it and a crashed process
 * loses nothing. Only a power loss can drop the last few bucket levels, which refills those buckets
 * a little early: acceptable for a rate limit, never for acknowledged data, hence only here.
 */
export function storeLimiter(store: Store, config: { rateLimits: RateLimits }, clock: Clock): Limiter {
  const rules = config.rateLimits;
  if (rules === 'off') {
    return { take: () => {}, refund: () => {}, enabled: false };
  }
  const storeBusyMs = Number(store.sqlite.pragma('busy_timeout', { simple: true }));
  // Prepared on first use (and again if the store's schema changed under them).
  let statements: { select: Statement; upsert: Statement; relaxed: Statement; full: Statement } | null = null;
  const prepared = () =>
    (statements ??= {
      select: store.sqlite.prepare('SELECT tokens, updated_at_ms AS updatedAtMs FROM rate_buckets WHERE key = ?'),
      upsert: store.sqlite.prepare(
        'INSERT INTO rate_buckets (key, tokens, updated_at_ms) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET tokens = excluded.tokens, updated_at_ms = excluded.updated_at_ms',
      ),
      relaxed: store.sqlite.prepare('PRAGMA synchronous = NORMAL'),
      full: store.sqlite.prepare('PRAGMA synchronous = FULL'),
    });
  const select = () => prepared().select;
  const upsert = () => prepared().upsert;

  function level(key: string, family: Family, nowMs: number): number {
    const rule = rules === 'off' ? undefined : rules[family];
    if (!rule) throw new Error(`no rule for ${family}`);
    const row = select().get(key) as { tokens: number; updatedAtMs: number } | undefined;
    if (!row) return rule.limit;
    const elapsed = Math.max(0, nowMs - row.updatedAtMs) / 1000;
    return Math.min(rule.limit, row.tokens + (elapsed * rule.limit) / rule.windowSeconds);
  }

  // better-sqlite3 waits for a lock synchronously, so the store's busy_timeout (5 s) would freeze every
  // request of the process while another connection holds the write lock. The limiter waits briefly
  // instead and, unable to decide, fails closed (503): one held lock never stalls unrelated requests.
  function guarded<T>(fn: () => T): T {
    try {
      // pragma() compiles the PRAGMA each time on purpose: SQLite applies busy_timeout when the
      // statement is compiled, so a prepared one run again changes nothing (the next take then waited 5 s).
      store.sqlite.pragma(`busy_timeout = ${LIMITER_BUSY_MS}`);
      // Inside a caller's transaction the bucket write is part of that commit, at its durability.
      if (store.sqlite.inTransaction) return store.sqlite.transaction(fn).immediate();
      const s = prepared();
      // better-sqlite3 is synchronous: no other statement of this connection runs before FULL is back.
      s.relaxed.run();
      try {
        return store.sqlite.transaction(fn).immediate();
      } finally {
        s.full.run();
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      statements = null;
      throw new ApiError(503, Messages.limiterUnavailable);
    } finally {
      store.sqlite.pragma(`busy_timeout = ${storeBusyMs}`);
    }
  }

  return {
    enabled: true,
    take(family, subject) {
      const rule = rules[family];
      const key = `${family}:${subject}`;
      guarded(() => {
        const nowMs = clock.now().getTime();
        const tokens = level(key, family, nowMs);
        if (tokens < 1) {
          throw rateLimited(((1 - tokens) * rule.windowSeconds) / rule.limit, family);
        }
        upsert().run(key, tokens - 1, nowMs);
      });
    },
    refund(family, subject) {
      const rule = rules[family];
      const key = `${family}:${subject}`;
      guarded(() => {
        const nowMs = clock.now().getTime();
        upsert().run(key, Math.min(rule.limit, level(key, family, nowMs) + 1), nowMs);
      });
    },
  };
}
