import { dirname, join } from 'node:path';
import { ApiError, Messages, rateLimited } from '../errors.js';
import type { Clock } from '../clock.js';
import type { Statement } from 'better-sqlite3';
import { Database } from '../store/sqlite.js';
import { ensurePrivateFile } from '../store/privateFiles.js';
import type { Store } from '../store/db.js';
import type { Family, RateLimits } from '../config.js';

/** The buckets' own database file, beside the store's (0600 like every file of the data folder). */
export const LIMITS_FILE = 'limits.sqlite';

/**
 * Opens (creating if needed) the buckets' database for a store: `limits.sqlite` in the store's folder, or an
 * in-memory one for an in-memory store. It holds nothing acknowledged (a lost file only refills every bucket),
 * so its one table is created here rather than by the store's migrations.
 */
export function openLimitsDb(store: Store): Database {
  const name = store.sqlite.name;
  const file = store.sqlite.memory || !name || name === ':memory:' ? ':memory:' : join(dirname(name), LIMITS_FILE);
  if (file !== ':memory:') ensurePrivateFile(file, () => {}, true);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  if (file !== ':memory:') for (const side of ['-wal', '-shm']) ensurePrivateFile(file + side, () => {});
  // In WAL mode NORMAL skips the fsync of each commit; each commit is still in the WAL before the next begins, so
  // other processes see it and a crashed process loses nothing. Only a power loss can drop the last few bucket levels.
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${LIMITER_BUSY_MS}`);
  db.exec('CREATE TABLE IF NOT EXISTS rate_buckets (key TEXT PRIMARY KEY NOT NULL, tokens REAL NOT NULL, updated_at_ms INTEGER NOT NULL) WITHOUT ROWID');
  return db;
}

/** How long a limiter call waits for a store lock held by another connection before answering 503. */
export const LIMITER_BUSY_MS = 50;

export interface Limiter {
  /** Spends one unit of `family` for `subject`; throws 429 when empty, 503 when the limiter cannot be reached. */
  take(family: Family, subject: string): void;
  /** Returns one unit (a queued review that failed to enqueue must not cost the caller). */
  refund(family: Family, subject: string): void;
  readonly enabled: boolean;
  /** Closes the buckets' database (closeAppDeps). */
  close(): void;
}

/**
 * Token buckets in their own SQLite file beside the store (issue 37, item 9): each take is one BEGIN IMMEDIATE
 * transaction there, so concurrent requests (REST and MCP, several processes on one data folder) never overspend a
 * bucket, and another process holding the store's write lock (a sync, a `review` run) never holds up a read's take:
 * the two files have separate locks. A bucket holds `limit` tokens and refills continuously at limit/window.
 * Any failure to read or write the bucket fails closed: 503, and the request does nothing.
 *
 * A take inside a caller's store transaction (a study upload) commits on its own: a 429 still undoes the caller's
 * write (the throw), while a caller's write failing after a successful take leaves that one unit spent.
 */
export function storeLimiter(store: Store, config: { rateLimits: RateLimits }, clock: Clock): Limiter {
  const rules = config.rateLimits;
  if (rules === 'off') {
    return { take: () => {}, refund: () => {}, enabled: false, close: () => {} };
  }
  let db: Database | null = null;
  // Opened and prepared on first use (and again after a failure, e.g. the file replaced under them).
  let statements: { select: Statement; upsert: Statement } | null = null;
  const prepared = () => {
    db ??= openLimitsDb(store);
    return (statements ??= {
      select: db.prepare('SELECT tokens, updated_at_ms AS updatedAtMs FROM rate_buckets WHERE key = ?'),
      upsert: db.prepare(
        'INSERT INTO rate_buckets (key, tokens, updated_at_ms) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET tokens = excluded.tokens, updated_at_ms = excluded.updated_at_ms',
      ),
    });
  };

  function level(key: string, family: Family, nowMs: number): number {
    const rule = rules === 'off' ? undefined : rules[family];
    if (!rule) throw new Error(`no rule for ${family}`);
    const row = prepared().select.get(key) as { tokens: number; updatedAtMs: number } | undefined;
    if (!row) return rule.limit;
    const elapsed = Math.max(0, nowMs - row.updatedAtMs) / 1000;
    return Math.min(rule.limit, row.tokens + (elapsed * rule.limit) / rule.windowSeconds);
  }

  // The buckets' file is locked only for a take's few microseconds, by any process; its busy_timeout is
  // LIMITER_BUSY_MS, never the store's 5 s: unable to decide, the limiter fails closed (503).
  function guarded<T>(fn: () => T): T {
    try {
      prepared();
      return db!.transaction(fn).immediate();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      statements = null;
      try {
        db?.close();
      } catch {
        // already closed
      }
      db = null;
      throw new ApiError(503, Messages.limiterUnavailable);
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
        prepared().upsert.run(key, tokens - 1, nowMs);
      });
    },
    refund(family, subject) {
      const rule = rules[family];
      const key = `${family}:${subject}`;
      guarded(() => {
        const nowMs = clock.now().getTime();
        prepared().upsert.run(key, Math.min(rule.limit, level(key, family, nowMs) + 1), nowMs);
      });
    },
    close() {
      db?.close();
      db = null;
      statements = null;
    },
  };
}
