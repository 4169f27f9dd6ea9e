import type Database from 'better-sqlite3';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type * as schema from './schema/index.js';

/**
 * The store handle's type, below everything that opens or reads the store: db.ts (which opens it),
 * ownerStamps.ts and prepared.ts (which db.ts installs and which read through it) all import it from
 * here, so none of them imports another for a type.
 */
export type Db = BetterSQLite3Database<typeof schema>;

export interface Store {
  db: Db;
  sqlite: Database.Database;
  /** The store's secret key (src/store/secretKey.ts), read from the 0600 file beside the database. */
  key: Buffer;
  close(): void;
}
