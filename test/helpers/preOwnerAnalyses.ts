import type { Database } from '../../src/store/sqlite.js';

/**
 * Takes a store back to what migration 0011 left (before 0012 made reviews per owner): `analyses` keyed
 * by moves alone and the owners' review state in `owner_reviews`, with the tables as 0004 and 0007 made
 * them, and 0012 unrecorded so the next open applies it. Other tables are unchanged by 0012.
 */
export function backTo0011(sqlite: Database): void {
  sqlite.exec(`
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
