import { sql } from 'drizzle-orm';
import type { Store } from './db.js';

const cache = new WeakMap<Store, Map<object, unknown>>();

/**
 * A query built and prepared once per store, then run with placeholders: for the small personal
 * reads an agent calls most (coaching state, saved positions), building the drizzle query and its SQL
 * text per request cost more than SQLite running it. `build` must be a module-level function: its
 * identity is the cache key.
 */
export function preparedOnce<T>(store: Store, build: (db: Store['db']) => T): T {
  let byBuild = cache.get(store);
  if (!byBuild) cache.set(store, (byBuild = new Map()));
  let query = byBuild.get(build) as T | undefined;
  if (query === undefined) byBuild.set(build, (query = build(store.db)));
  return query;
}

/** A placeholder for a list of values (ids), passed as one JSON array: `col IN (SELECT value FROM json_each(?))`. */
export const jsonList = (name: string) => sql`(SELECT value FROM json_each(${sql.placeholder(name)}))`;
