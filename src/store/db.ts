import { Database } from './sqlite.js';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { dirname, join } from 'node:path';
import { pgnTag } from '../chess/pgn.js';
import { loadSecretKey, SECRET_KEY_FILE } from './secretKey.js';
import { migrationsDir } from '../paths.js';
import { ensurePrivateDir, ensurePrivateFile, type Log } from './privateFiles.js';
import { installOwnerStamps } from './ownerStamps.js';
import * as schema from './schema/index.js';
import type { Store } from './store.js';

export type { Db, Store } from './store.js';

/**
 * Opens (creating if needed) the store and applies the committed migrations.
 * WAL plus synchronous=FULL: an acknowledged write survives a crash or power loss.
 */
export function openStore(file: string, opts: { log?: Log } = {}): Store {
  const log = opts.log ?? ((line: string) => console.error(line));
  const dir = dirname(file);
  ensurePrivateDir(dir, log);
  const key = loadSecretKey(dir);
  ensurePrivateFile(join(dir, SECRET_KEY_FILE), log);
  ensurePrivateFile(file, log, true);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  // SQLite gives the WAL and shared-memory files the database's mode; an older store's are fixed here.
  for (const side of ['-wal', '-shm']) ensurePrivateFile(file + side, log);
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // 16 MB of page cache: the list queries run on covering indexes, whose hot pages fit, and the OS
  // caches the rest of the file. 64 MB kept a 100,000-game server near 320 MB resident under load
  // against the 250 MB budget (npm run bench scale, "server peak RSS"), for no read it made faster.
  sqlite.pragma('cache_size = -16384');
  sqlite.pragma('temp_store = MEMORY');
  registerStoreFunctions(sqlite);
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: migrationsDir });
  installOwnerStamps(sqlite);
  // Keeps the planner's statistics fresh (cheap; only tables that changed a lot are re-analysed).
  sqlite.pragma('optimize = 0x10002');
  return { db, sqlite, key, close: () => sqlite.close() };
}

/** The SQL functions the migrations call: the one definition of reading a tag pair, for migrations that derive a column from stored PGNs (0009). */
export function registerStoreFunctions(sqlite: Database): void {
  sqlite.function('pgn_tag', { deterministic: true }, (text: unknown, name: unknown) =>
    typeof text === 'string' && typeof name === 'string' ? pgnTag(text, name) : null,
  );
}

/** The database file of a data folder (openStore creates the folder, 0700, when missing). */
export function storeFile(dataDir: string): string {
  return join(dataDir, 'chess-footprint.sqlite');
}

/** One write transaction. The callback must be synchronous (better-sqlite3). */
export function inTransaction<T>(store: Store, fn: () => T): T {
  return store.sqlite.transaction(fn).immediate();
}
