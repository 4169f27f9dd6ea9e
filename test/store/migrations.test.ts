import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/store/sqlite.js';
import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, test } from 'vitest';
import { createAppDeps } from '../../src/app.js';
import { revealSourceToken } from '../../src/store/storedSecrets.js';
import { verifyToken } from '../../src/auth/tokens.js';
import { loadConfig } from '../../src/config.js';
import { migrationsDir } from '../../src/paths.js';
import { openStore, registerStoreFunctions, storeFile } from '../../src/store/db.js';
import { storePgn } from '../../src/services/games/gameWriter.js';
import * as schema from '../../src/store/schema/index.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

interface Journal {
  entries: Array<{ idx: number; tag: string; when: number }>;
}
const journal = JSON.parse(readFileSync(join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as Journal;
const N = journal.entries.length;

const tmp = mkdtempSync(join(tmpdir(), 'cfp-migrate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A migrations folder holding only the first `n` migrations: what an earlier release shipped. */
function earlierRelease(n: number): string {
  const dir = join(tmp, `release-${n}`);
  cpSync(migrationsDir, dir, { recursive: true });
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, n) }));
  return dir;
}

// Rows written with the columns of 0000_init (never edited), as a store of the first release holds them.
const TOKEN = 'cfp_' + 'a'.repeat(43);
function seedFirstRelease(sqlite: Database, tokenFingerprint: string): void {
  sqlite.prepare("INSERT INTO users (id, display_name, email, created_at) VALUES ('u1', 'Ann Player', 'ann@example.test', '2026-01-01T00:00:00.000Z')").run();
  sqlite.prepare("INSERT INTO tokens (id, user_id, name, fingerprint, created_at) VALUES ('t1', 'u1', 'init', ?, '2026-01-01T00:00:00.000Z')").run(tokenFingerprint);
  sqlite
    .prepare("INSERT INTO connections (id, user_id, provider, external_id, source_token, status, connected_at, cursor) VALUES ('c1', 'u1', 'siteB', 'RookRanger42', 'lip_clear', 'ok', '2026-01-01T00:00:00.000Z', '{\"since\":5}')")
    .run();
  sqlite
    .prepare("INSERT INTO weekly_reports (id, user_id, week_start, week_end, payload, generated_at, share_token) VALUES ('r1', 'u1', '2026-11-14', '2026-11-20', '{\"weekEnd\":\"2026-11-20\"}', '2026-11-21T00:00:00.000Z', ?)")
    .run('B'.repeat(43));
}

describe('migrations are append-only and upgrade a store in place', () => {
  test('the journal numbers its migrations 0..N-1, each file present; db:generate deletes nothing', () => {
    expect(journal.entries.map((e) => e.idx)).toEqual([...Array(N).keys()]);
    for (const e of journal.entries) {
      expect(e.tag.startsWith(String(e.idx).padStart(4, '0') + '_')).toBe(true);
      expect(readFileSync(join(migrationsDir, `${e.tag}.sql`), 'utf8').length).toBeGreaterThan(0);
    }
    // Applied in order of `when`: a later migration must never sort before an earlier one.
    expect(journal.entries.map((e) => e.when)).toEqual([...journal.entries.map((e) => e.when)].sort((a, b) => a - b));
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['db:generate']).not.toMatch(/\brm\b|rimraf|--name init/);
  });

  // Every earlier release: the first migration alone, then each longer prefix short of the full set.
  test.each(Array.from({ length: N - 1 }, (_, i) => i + 1))('a store made with the first %i migration(s) opens with the full set, its rows intact', async (n) => {
    const dir = join(tmp, `store-${n}`);
    const fp = createHash('sha256').update(TOKEN).digest('hex');
    {
      mkdirSync(dir, { recursive: true });
      const sqlite = new Database(storeFile(dir));
      // An earlier release's openStore registered the functions its migrations call (0009's pgn_tag).
      registerStoreFunctions(sqlite);
      migrate(drizzle(sqlite), { migrationsFolder: earlierRelease(n) });
      seedFirstRelease(sqlite, fp);
      sqlite.close();
    }

    const store = openStore(storeFile(dir), { log: () => {} });
    try {
      const applied = store.sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number };
      expect(applied.n).toBe(N);
      // Every column the current schema declares exists now.
      const tables = (Object.values(schema) as unknown[]).filter((t): t is Table => typeof t === 'object' && t !== null && Symbol.for('drizzle:Name') in t);
      expect(tables.map((t) => getTableName(t))).toEqual(expect.arrayContaining(['users', 'tokens', 'connections', 'weekly_reports', 'games']));
      for (const table of tables) {
        const have = new Set((store.sqlite.prepare(`PRAGMA table_info(${getTableName(table)})`).all() as Array<{ name: string }>).map((c) => c.name));
        for (const col of Object.values(getTableColumns(table))) expect(have.has(col.name), `${getTableName(table)}.${col.name}`).toBe(true);
      }
      const errors = console.error;
      console.error = () => {};
      try {
        createAppDeps(loadConfig({ dataDir: dir }, {}), { store });
      } finally {
        console.error = errors;
      }
      // The rows are there, the token still signs in, the lichess token is sealed but the same.
      expect(store.sqlite.prepare('SELECT display_name, email FROM users').all()).toEqual([{ display_name: 'Ann Player', email: 'ann@example.test' }]);
      expect(verifyToken(store, TOKEN)?.email).toBe('ann@example.test');
      const c = store.sqlite.prepare("SELECT external_id, status, cursor, source_token FROM connections WHERE id = 'c1'").get() as Record<string, string>;
      expect(c).toMatchObject({ external_id: 'RookRanger42', status: 'ok', cursor: '{"since":5}' });
      expect(revealSourceToken(store, c.source_token)).toBe('lip_clear');
      const r = store.sqlite.prepare("SELECT week_end, payload, share_token FROM weekly_reports WHERE id = 'r1'").get() as Record<string, string>;
      expect(r).toMatchObject({ week_end: '2026-11-20', payload: '{"weekEnd":"2026-11-20"}' });
      expect(r.share_token).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      store.close();
    }
  });

  test('0009 reads the Termination tag of every PGN stored before it, as a PGN stored after it gets it', () => {
    const at = journal.entries.findIndex((e) => e.tag.startsWith('0009_'));
    const dir = join(tmp, 'store-termination');
    mkdirSync(dir, { recursive: true });
    const texts = {
      lost: '[Event "Rated blitz"]\n[Termination "Time forfeit"]\n\n1. e4 e5 0-1\n',
      quoted: '[Termination "White won \\"on time\\""]\n\n1. d4 1-0\n',
      none: '[Event "OTB"]\n\n1. c4 { [Termination "in a comment"] } *\n',
    };
    {
      const sqlite = new Database(storeFile(dir));
      migrate(drizzle(sqlite), { migrationsFolder: earlierRelease(at) });
      const put = sqlite.prepare("INSERT INTO pgns (hash, text, created_at) VALUES (?, ?, '2026-01-01T00:00:00.000Z')");
      for (const [hash, text] of Object.entries(texts)) put.run(hash, text);
      sqlite.close();
    }
    const store = openStore(storeFile(dir), { log: () => {} });
    try {
      const rows = store.sqlite.prepare('SELECT hash, termination FROM pgns ORDER BY hash').all();
      expect(rows).toEqual([
        { hash: 'lost', termination: 'Time forfeit' },
        { hash: 'none', termination: null },
        { hash: 'quoted', termination: 'White won "on time"' },
      ]);
      store.sqlite.transaction(() => storePgn(store, texts.lost.replace('blitz', 'rapid'), '2026-01-02T00:00:00.000Z'))();
      expect(store.sqlite.prepare("SELECT termination FROM pgns WHERE text LIKE '%rapid%'").get()).toEqual({ termination: 'Time forfeit' });
    } finally {
      store.close();
    }
  });
});
