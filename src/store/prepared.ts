import { sql } from 'drizzle-orm';
import type { Store } from './db.js';

const cache = new WeakMap<Store, Map<object, unknown>>();

/**
 * A query built and prepared once per store, then run with placeholders: for the reads an agent
 * calls most (a token, a game, coaching state, saved positions) and the sync's batch insert, building
 * the query and its SQL text per call cost more than SQLite running it. `build` gets the drizzle
 * handle and the raw connection (for statements drizzle's builder cannot express); it must be a
 * module-level function: its identity is the cache key.
 */
export function preparedOnce<T>(store: Store, build: (db: Store['db'], sqlite: Store['sqlite']) => T): T {
  let byBuild = cache.get(store);
  if (!byBuild) cache.set(store, (byBuild = new Map()));
  let query = byBuild.get(build) as T | undefined;
  if (query === undefined) byBuild.set(build, (query = build(store.db, store.sqlite)));
  return query;
}

/** A placeholder for a list of values (ids), passed as one JSON array: `col IN (SELECT value FROM json_each(?))`. */
export const jsonList = (name: string) => sql`(SELECT value FROM json_each(${sql.placeholder(name)}))`;
