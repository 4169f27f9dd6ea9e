import { Column, is, Placeholder, SQL, sql } from 'drizzle-orm';
import type { Store } from './store.js';

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

/** What flatQuery reads of a drizzle select: its SQL with parameters, and the fields it selects. */
interface FlatSelect {
  toSQL(): { sql: string; params: unknown[] };
  _: { selectedFields: Record<string, unknown> };
  get(): unknown;
}

export interface FlatQuery<Row> {
  get(values: Record<string, unknown>): Row | undefined;
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };
/** An sql field's decoder (set by `.mapWith()`): drizzle keeps it on the field, marked internal. */
const sqlDecoder = (field: SQL) => (field as unknown as { decoder: Decoder }).decoder;
const noDecoding = sqlDecoder(sql``);

/** A field's decoder (a boolean column's 0/1, a JSON column's text), or null where values pass as they are. */
function decoderOf(field: unknown): ((value: unknown) => unknown) | null {
  if (is(field, Column)) return field.mapFromDriverValue === Column.prototype.mapFromDriverValue ? null : (v) => field.mapFromDriverValue(v);
  const decoder = is(field, SQL) ? sqlDecoder(field) : is(field, SQL.Aliased) ? sqlDecoder(field.sql) : null;
  if (decoder === null) throw new Error('flatQuery takes columns and sql fields only');
  return decoder === noDecoding ? null : (v) => decoder.mapFromDriverValue(v);
}

/**
 * A flat drizzle select (one level of named columns and sql fields, no nested objects, no joined
 * table that may be null) prepared on the raw connection, its rows built by position with each
 * field's decoder worked out once. Drizzle's own row mapping walks every field's path with an
 * iterator and entity checks on each row: on a server, where each request finds the CPU caches
 * cold, that was 9 of get_game's 30 µs in SQLite (issue 13). Same SQL, same values, same decoding.
 */
export function flatQuery<Q extends FlatSelect>(sqlite: Store['sqlite'], query: Q): FlatQuery<NonNullable<ReturnType<Q['get']>>> {
  const { sql: text, params } = query.toSQL();
  const fields = Object.entries(query._.selectedFields);
  const names = fields.map(([name]) => name);
  const decoders = fields.map(([, field]) => decoderOf(field));
  const statement = sqlite.prepare(text).raw();
  const bind = params.map((p) => (is(p, Placeholder) ? (values: Record<string, unknown>) => values[p.name] : () => p));
  return {
    get(values) {
      const raw = statement.get(...bind.map((b) => b(values))) as unknown[] | undefined;
      if (raw === undefined) return undefined;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i += 1) {
        const value = raw[i];
        const decode = decoders[i];
        row[names[i]] = value === null || decode === null ? value : decode(value);
      }
      return row as NonNullable<ReturnType<Q['get']>>;
    },
  };
}
