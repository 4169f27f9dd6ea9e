import type { Database } from '../../src/store/sqlite.js';

/**
 * Takes a store back to what migration 0011 left (before 0012 made reviews per owner): `analyses` keyed
 * by moves alone and the owners' review state in `owner_reviews`, with the tables as 0004 and 0007 made
 * them; what the later migrations added undone (0013 worker_keys, 0014 owner_stamps.prep_version, 0015
 * explorer_answers, 0016 worker_opening_lines, 0017's columns, 0018 explorer_fetches and explorer_lease, 0019 scout_lease, 0020 explorer_run_lease); and 0012 onwards unrecorded so the next open applies them.
 * The owner-stamp triggers go too (they name prep_version): the next open installs them again.
 */
export function backTo0011(sqlite: Database): void {
  for (const { name } of sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as Array<{ name: string }>) {
    sqlite.exec(`DROP TRIGGER "${name}"`);
  }
  sqlite.exec(`
    -- 0020: who is fetching an explorer run.
    DROP TABLE IF EXISTS explorer_run_lease;
    -- 0019: who is fetching a scout.
    DROP TABLE IF EXISTS scout_lease;
    -- 0018: the opening explorer's failed fetches and its store-wide lease.
    DROP TABLE IF EXISTS explorer_fetches;
    DROP TABLE IF EXISTS explorer_lease;
    DROP TABLE IF EXISTS worker_opening_lines;
    DROP TABLE IF EXISTS explorer_answers;
    DROP TABLE IF EXISTS worker_keys;
    ALTER TABLE owner_stamps DROP COLUMN prep_version;
    -- 0017: a review worker's progress.
    ALTER TABLE review_jobs DROP COLUMN progress_done;
    -- Its id column is not a rowid alias (drizzle declares it SERIAL), so records are told apart by created_at: 0000–0012 kept.
    DELETE FROM __drizzle_migrations WHERE created_at > (SELECT created_at FROM __drizzle_migrations ORDER BY created_at LIMIT 1 OFFSET 12);
    DROP TABLE analyses;
    CREATE TABLE analyses (
      moves_key text PRIMARY KEY NOT NULL,
      payload text NOT NULL,
      engine text NOT NULL,
      depth integer NOT NULL,
      nodes_per_position integer NOT NULL,
      accuracy_white real NOT NULL,
      accuracy_black real NOT NULL,
      analysed_at text NOT NULL,
      derivation text,
      derivation_version integer DEFAULT 0 NOT NULL,
      view blob
    );
    CREATE TABLE owner_reviews (
      user_id text NOT NULL,
      moves_key text NOT NULL,
      reviewed_at text NOT NULL,
      PRIMARY KEY(user_id, moves_key),
      FOREIGN KEY (user_id) REFERENCES users(id) ON UPDATE no action ON DELETE cascade
    );
    CREATE INDEX owner_reviews_moves_key ON owner_reviews (moves_key);
    DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations);
  `);
}
