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
  test('0012 makes reviews per owner: each owner holding a review keeps their own copy of it, a row nobody holds is dropped', () => {
    const at = journal.entries.findIndex((e) => e.tag.startsWith('0012_'));
    const dir = join(tmp, 'store-owner-analyses');
    mkdirSync(dir, { recursive: true });
    {
      const sqlite = new Database(storeFile(dir));
      registerStoreFunctions(sqlite);
      migrate(drizzle(sqlite), { migrationsFolder: earlierRelease(at) });
      const user = sqlite.prepare("INSERT INTO users (id, display_name, email, created_at) VALUES (?, ?, ?, '2026-01-01T00:00:00.000Z')");
      for (const u of ['u1', 'u2', 'u3', 'u4']) user.run(u, u, `${u}@example.test`);
      const analysis = sqlite.prepare(
        `INSERT INTO analyses (moves_key, payload, engine, depth, nodes_per_position, accuracy_white, accuracy_black, analysed_at, derivation, derivation_version, view)
         VALUES (?, ?, ?, 12, 20000, 81.5, 77.2, ?, '{"d":1}', 3, x'0102')`,
      );
      analysis.run('K1', '{"p":"K1"}', 'Stockfish 17', '2026-02-01T00:00:00.000Z'); // u1 and u2 hold it (owner_reviews)
      analysis.run('K2', '{"p":"K2"}', 'lichess server analysis', '2026-02-02T00:00:00.000Z'); // u3: a completed job only (never backfilled)
      analysis.run('K3', '{"p":"K3"}', 'Stockfish 17', '2026-02-03T00:00:00.000Z'); // nobody: u1's job for it is still queued
      analysis.run('K4', '{"p":"K4"}', 'Stockfish 17', '2026-02-04T00:00:00.000Z'); // u4: a game carrying its accuracy
      const held = sqlite.prepare('INSERT INTO owner_reviews (user_id, moves_key, reviewed_at) VALUES (?, ?, ?)');
      held.run('u1', 'K1', '2026-03-01T00:00:00.000Z');
      held.run('u2', 'K1', '2026-03-02T00:00:00.000Z');
      const job = sqlite.prepare(
        "INSERT INTO review_jobs (id, user_id, subject_kind, subject_id, moves_key, start_fen, moves_uci, status, created_at, finished_at) VALUES (?, ?, 'study', ?, ?, 'startpos', 'e2e4', ?, '2026-01-05T00:00:00.000Z', ?)",
      );
      job.run('j1', 'u3', 's3', 'K2', 'complete', '2026-03-03T00:00:00.000Z');
      job.run('j2', 'u1', 's1', 'K3', 'queued', null);
      sqlite
        .prepare(
          `INSERT INTO games (id, user_id, provider, source_id, played_at, colour, result, opponent, time_class, rated, moves_count, source_url, created_at, moves_key, review_accuracy)
           VALUES ('g4', 'u4', 'siteB', 'x', '2026-01-01T00:00:00.000Z', 'white', 'win', 'them', 'blitz', 1, 2, 'https://lichess.org/x', '2026-01-01T00:00:00.000Z', 'K4', 81.5)`,
        )
        .run();
      sqlite.close();
    }
    const store = openStore(storeFile(dir), { log: () => {} });
    try {
      const rows = store.sqlite.prepare('SELECT user_id AS u, moves_key AS k, payload, engine, analysed_at AS analysed, reviewed_at AS reviewed, derivation, derivation_version AS v, hex(view) AS view FROM analyses ORDER BY u, k').all();
      const copy = (k: string, engine: string, analysed: string) => ({ k, payload: `{"p":"${k}"}`, engine, analysed, derivation: '{"d":1}', v: 3, view: '0102' });
      expect(rows).toEqual([
        { u: 'u1', reviewed: '2026-03-01T00:00:00.000Z', ...copy('K1', 'Stockfish 17', '2026-02-01T00:00:00.000Z') },
        { u: 'u2', reviewed: '2026-03-02T00:00:00.000Z', ...copy('K1', 'Stockfish 17', '2026-02-01T00:00:00.000Z') },
        { u: 'u3', reviewed: '2026-03-03T00:00:00.000Z', ...copy('K2', 'lichess server analysis', '2026-02-02T00:00:00.000Z') },
        { u: 'u4', reviewed: '2026-02-04T00:00:00.000Z', ...copy('K4', 'Stockfish 17', '2026-02-04T00:00:00.000Z') },
      ]);
      expect(store.sqlite.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'owner_reviews'").get()).toEqual({ n: 0 });
      // Each copy is its owner's: deleting u1 takes u1's copy only.
      store.sqlite.prepare("DELETE FROM users WHERE id = 'u1'").run();
      expect(store.sqlite.prepare("SELECT user_id AS u FROM analyses WHERE moves_key = 'K1'").all()).toEqual([{ u: 'u2' }]);
    } finally {
      store.close();
    }
  });
});
