import { Database } from '../../src/store/sqlite.js';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { describe, expect, test } from 'vitest';
import { flatQuery } from '../../src/store/prepared.js';

// A table with each kind of decoding a column can have: none, 0/1 → boolean, text → JSON, seconds → Date.
const things = sqliteTable('things', {
  id: text('id').primaryKey(),
  name: text('name'),
  rated: integer('rated', { mode: 'boolean' }).notNull(),
  tags: text('tags', { mode: 'json' }).$type<string[]>(),
  seenAt: integer('seen_at', { mode: 'timestamp' }),
  score: real('score'),
});

function store() {
  const sqlite = new Database(':memory:');
  sqlite.exec('CREATE TABLE things (id TEXT PRIMARY KEY, name TEXT, rated INTEGER NOT NULL, tags TEXT, seen_at INTEGER, score REAL)');
  const db = drizzle(sqlite);
  db.insert(things)
    .values([
      { id: 'a', name: 'Ruy "Lopez"', rated: true, tags: ['e4', 'open'], seenAt: new Date('2026-01-02T03:04:05Z'), score: 0.5 },
      { id: 'b', name: null, rated: false, tags: null, seenAt: null, score: null },
    ])
    .run();
  return { sqlite, db };
}

describe('flatQuery', () => {
  const { sqlite, db } = store();
  const select = () =>
    db
      .select({
        id: things.id,
        name: things.name,
        rated: things.rated,
        tags: things.tags,
        seenAt: things.seenAt,
        score: things.score,
        nameLength: sql<number | null>`length(${things.name})`,
        doubled: sql`${things.score} * 2`.mapWith((v) => `×${v}`),
      })
      .from(things)
      .where(eq(things.id, sql.placeholder('id')));
  const fast = flatQuery(sqlite, select());
  const reference = select().prepare();

  test('decodes each column as drizzle does, by name, with placeholders bound by name', () => {
    expect(fast.get({ id: 'a' })).toEqual({
      id: 'a',
      name: 'Ruy "Lopez"',
      rated: true,
      tags: ['e4', 'open'],
      seenAt: new Date('2026-01-02T03:04:05Z'),
      score: 0.5,
      nameLength: 11,
      doubled: '×1',
    });
    expect(fast.get({ id: 'b' })).toEqual({ id: 'b', name: null, rated: false, tags: null, seenAt: null, score: null, nameLength: null, doubled: null });
    for (const id of ['a', 'b']) expect(fast.get({ id })).toEqual(reference.get({ id }));
  });

  test('an unknown key is undefined, as with drizzle', () => {
    expect(fast.get({ id: 'zz' })).toBeUndefined();
    expect(reference.get({ id: 'zz' })).toBeUndefined();
  });

  test('keys come in the order of the selection (the order an answer is written in)', () => {
    expect(Object.keys(fast.get({ id: 'a' })!)).toEqual(['id', 'name', 'rated', 'tags', 'seenAt', 'score', 'nameLength', 'doubled']);
  });

  test('a nested selection is refused rather than flattened wrongly', () => {
    expect(() => flatQuery(sqlite, db.select({ thing: { id: things.id } }).from(things))).toThrow(/columns and sql fields only/);
  });
});
