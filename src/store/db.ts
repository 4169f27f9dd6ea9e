import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsDir } from '../paths.js';
import { installOwnerStamps } from './ownerStamps.js';
import * as schema from './schema/index.js';

export type Db = BetterSQLite3Database<typeof schema>;

export interface Store {
  db: Db;
  sqlite: Database.Database;
  close(): void;
}

/**
 * Opens (creating if needed) the store and applies the committed migrations.
 * WAL plus synchronous=FULL: an acknowledged write survives a crash or power loss.
 */
export function openStore(file: string): Store {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Game rows are wide (moves, clocks): a 64 MB page cache keeps a large history's list queries in memory.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('temp_store = MEMORY');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: migrationsDir });
  installOwnerStamps(sqlite);
  // Keeps the planner's statistics fresh (cheap; only tables that changed a lot are re-analysed).
  sqlite.pragma('optimize = 0x10002');
  return { db, sqlite, close: () => sqlite.close() };
}

export function storeFile(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  return join(dataDir, 'chess-footprint.sqlite');
}

/** One write transaction. The callback must be synchronous (better-sqlite3). */
export function inTransaction<T>(store: Store, fn: () => T): T {
  return store.sqlite.transaction(fn).immediate();
}
