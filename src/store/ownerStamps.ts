import type Database from 'better-sqlite3';
import type { Store } from './store.js';
import { preparedOnce } from './prepared.js';

/**
 * Triggers that keep `owner_stamps` (schema/ownerStamps.ts) right for every writer, whatever the
 * code path or process: sync, imports, attach, reviews copying accuracy back, cascading deletes.
 * Deletes and updates only UPDATE the row, so a cascade from a deleted user never re-inserts it.
 */
const TRIGGERS: Record<string, string> = {
  owner_stamps_game_insert: `AFTER INSERT ON games BEGIN
    INSERT INTO owner_stamps (user_id, games, version) VALUES (new.user_id, 1, 1)
      ON CONFLICT(user_id) DO UPDATE SET games = games + 1, version = version + 1;
  END`,
  owner_stamps_game_delete: `AFTER DELETE ON games BEGIN
    UPDATE owner_stamps SET games = games - 1, version = version + 1 WHERE user_id = old.user_id;
  END`,
  owner_stamps_game_update: `AFTER UPDATE ON games BEGIN
    UPDATE owner_stamps SET version = version + 1 WHERE user_id = old.user_id;
  END`,
  owner_stamps_rating_insert: `AFTER INSERT ON rating_points BEGIN
    INSERT INTO owner_stamps (user_id, games, version) VALUES (new.user_id, 0, 1)
      ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
  END`,
  owner_stamps_rating_update: `AFTER UPDATE ON rating_points BEGIN
    UPDATE owner_stamps SET version = version + 1 WHERE user_id = old.user_id;
  END`,
  owner_stamps_rating_delete: `AFTER DELETE ON rating_points BEGIN
    UPDATE owner_stamps SET version = version + 1 WHERE user_id = old.user_id;
  END`,
  ...coachingTriggers(),
  ...studyTriggers(),
  ...accountTriggers(),
  ...prepTriggers(),
};

/**
 * Triggers bumping one version column on every insert, update and delete of the tables that hold the
 * owner's id (`owned`) and of a table whose rows name the owner through a parent row (`child`). Only
 * an insert may create the stamp row; updates and deletes (cascades from a deleted user among them)
 * only update it.
 */
function bumpOnWrite(column: string, owned: readonly string[], child?: { table: string; owner: (row: 'new' | 'old') => string }): Record<string, string> {
  const events = [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const;
  const out: Record<string, string> = {};
  for (const table of owned)
    for (const [event, row] of events) out[`owner_stamps_${table}_${event}`] = `AFTER ${event.toUpperCase()} ON ${table} BEGIN ${bump(column, event, `${row}.user_id`)} END`;
  if (child)
    for (const [event, row] of events)
      out[`owner_stamps_${child.table}_${event}`] = `AFTER ${event.toUpperCase()} ON ${child.table} BEGIN ${bump(column, event, child.owner(row))} END`;
  return out;
}

/** The statement bumping `column` of `owner`'s stamp: an insert may create the row, anything else only updates it. */
function bump(column: string, event: 'insert' | 'update' | 'delete', owner: string): string {
  return event === 'insert'
    ? `INSERT INTO owner_stamps (user_id, games, version, ${column}) SELECT ${owner}, 0, 0, 1 WHERE ${owner} IS NOT NULL
      ON CONFLICT(user_id) DO UPDATE SET ${column} = ${column} + 1;`
    : `UPDATE owner_stamps SET ${column} = ${column} + 1 WHERE user_id = ${owner};`;
}

/**
 * The coaching tables bump `coaching_version`: get_coaching_state and list_saved_positions are
 * kept per that version. A quiz result names its position, whose row names the owner.
 */
function coachingTriggers(): Record<string, string> {
  return bumpOnWrite('coaching_version', ['coaching_entries', 'coaching_focuses', 'saved_positions'], {
    table: 'position_quizzes',
    owner: (row) => `(SELECT user_id FROM saved_positions WHERE id = ${row}.position_id)`,
  });
}

/**
 * What list_study_games shows bumps `study_version`: the owner's study rows and their notes, their
 * review jobs (queued → running → complete | failed) and their reviews (analyses, per owner since
 * 0012: a derivation brought to a new version bumps only its owner's).
 * A note names its study row, whose row names the owner; a note deleted by the cascade from its row
 * finds no owner, and the row's own trigger has bumped the version already.
 */
function studyTriggers(): Record<string, string> {
  return {
    ...bumpOnWrite('study_version', ['study_games', 'review_jobs', 'analyses'], {
      table: 'study_notes',
      owner: (row) => `(SELECT user_id FROM study_games WHERE id = ${row}.study_game_id)`,
    }),
  };
}

/**
 * The owner's account bumps `account_version`: their user row, their connections, and any change to
 * a token that can end it (revoked, expiry moved, deleted, reassigned). A verified token is kept per
 * that version (src/auth/tokens.ts); a new token needs no bump (nothing kept can name it), nor does
 * its last-used stamp. Deleting a user deletes the stamp row with it (cascade).
 */
function accountTriggers(): Record<string, string> {
  const update = (owner: string) => bump('account_version', 'update', owner);
  return {
    ...bumpOnWrite('account_version', ['connections']),
    // Every user has a stamp row from the start, so a token verified before any other write is still bumped.
    owner_stamps_users_insert: `AFTER INSERT ON users BEGIN INSERT INTO owner_stamps (user_id, games, version) VALUES (new.id, 0, 0) ON CONFLICT(user_id) DO NOTHING; END`,
    owner_stamps_users_update: `AFTER UPDATE ON users BEGIN ${update('new.id')} END`,
    owner_stamps_tokens_update: `AFTER UPDATE OF user_id, fingerprint, revoked_at, expires_at ON tokens BEGIN ${update('old.user_id')} ${update('new.user_id')} END`,
    owner_stamps_tokens_delete: `AFTER DELETE ON tokens BEGIN ${update('old.user_id')} END`,
  };
}

/**
 * The owner's preparation bumps `prep_version`: their repertoires, their scouts and the scouted games (whose
 * scout row names the owner). The repertoire deviations and a scouted player's report are kept per that version
 * with the others they read (issue 37). A scouted game deleted by the cascade from its scout finds no owner, and
 * the scout's own trigger has bumped the version already.
 */
function prepTriggers(): Record<string, string> {
  return bumpOnWrite('prep_version', ['repertoires', 'scouts'], {
    table: 'scout_games',
    owner: (row) => `(SELECT user_id FROM scouts WHERE id = ${row}.scout_id)`,
  });
}

/**
 * Installs the triggers the first time a store is opened with this code, counting every owner's
 * games in the same transaction so the counts start right. Later opens only check the catalogue.
 */
export function installOwnerStamps(sqlite: Database.Database): void {
  const names = Object.keys(TRIGGERS);
  const have = sqlite
    .prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name IN (${names.map(() => '?').join(',')})`)
    .get(...names) as { n: number };
  if (have.n === names.length) return;
  sqlite.transaction(() => {
    for (const [name, body] of Object.entries(TRIGGERS)) {
      sqlite.exec(`DROP TRIGGER IF EXISTS ${name}; CREATE TRIGGER ${name} ${body};`);
    }
    sqlite.exec(`INSERT INTO owner_stamps (user_id, games, version)
      SELECT id, (SELECT count(*) FROM games WHERE games.user_id = users.id), 1 FROM users WHERE true
      ON CONFLICT(user_id) DO UPDATE SET games = excluded.games, version = version + 1`);
  }).immediate();
}

export interface OwnerStamp {
  games: number;
  version: number;
  coachingVersion: number;
  studyVersion: number;
  accountVersion: number;
  prepVersion: number;
}

const stampQuery = (_db: Store['db'], sqlite: Store['sqlite']) =>
  sqlite.prepare('SELECT games, version, coaching_version AS coachingVersion, study_version AS studyVersion, account_version AS accountVersion, prep_version AS prepVersion FROM owner_stamps WHERE user_id = ?');

/** The owner's game count and data versions: one primary-key read. */
export function ownerStamp(store: Store, userId: string): OwnerStamp {
  return (preparedOnce(store, stampQuery).get(userId) as OwnerStamp | undefined) ?? { games: 0, version: 0, coachingVersion: 0, studyVersion: 0, accountVersion: 0, prepVersion: 0 };
}
