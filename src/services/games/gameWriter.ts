import { randomUUID } from 'node:crypto';
import { getTableColumns, is, SQL } from 'drizzle-orm';
import { fullMoves, movesKey, pgnTag, sha256, type MainlinePly } from '../../chess/pgn.js';
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/db.js';
import { preparedOnce } from '../../store/prepared.js';
import { games } from '../../store/schema/index.js';

export type GameRow = typeof games.$inferSelect;
/** A game as a source produces it; id, createdAt and version are the store's. */
export type NewGame = Omit<typeof games.$inferInsert, 'id' | 'createdAt' | 'version'>;

/**
 * Stores PGN text under its SHA-256 (idempotent), with what is read from it once (its Termination
 * tag), and returns the hash: the one writer of `pgns` rows. Call inside the write's transaction.
 */
export function storePgn(store: Store, text: string, now: string): string {
  const hash = sha256(text);
  preparedOnce(store, insertStatements).pgn.run(hash, text, now, pgnTag(text, 'Termination'));
  return hash;
}

/** The move-derived columns of a game whose full PGN is stored. */
export function movesColumns(parsed: { startFen: string; plies: readonly MainlinePly[] }, pgnHash: string) {
  const clocks = parsed.plies.map((p) => p.clockSeconds);
  return {
    sanMoves: parsed.plies.map((p) => p.san).join(' '),
    movesSource: 'pgn' as const,
    movesKey: movesKey(parsed.startFen, parsed.plies.map((p) => p.uci)),
    movesCount: fullMoves(parsed.plies.length),
    pgnHash,
    clocks: clocks.some((c) => c !== null) ? JSON.stringify(clocks) : null,
  };
}

// The batch insert's statements, prepared once per store: building and preparing the statement for
// every row through the query builder cost more than the insert itself (issue 13's profile).
const GAME_COLUMNS = Object.entries(getTableColumns(games));

const insertStatements = (_db: Store['db'], sqlite: Store['sqlite']) => ({
  // Same conflict rule as the builder's onConflictDoNothing on (user, provider, sourceId).
  game: sqlite.prepare(
    `insert into "games" (${GAME_COLUMNS.map(([, c]) => `"${c.name}"`).join(', ')}) values (${GAME_COLUMNS.map(() => '?').join(', ')}) on conflict ("user_id", "provider", "source_id") do nothing`,
  ),
  pgn: sqlite.prepare('insert into "pgns" ("hash", "text", "created_at", "termination") values (?, ?, ?, ?) on conflict do nothing'),
});

/**
 * A row's values in column order, encoded as the query builder encodes them (booleans as 0/1). An
 * absent value takes the column's declared default, as the builder's insert does, else null.
 */
function gameValues(row: NewGame, own: Pick<typeof games.$inferInsert, 'id' | 'createdAt' | 'version'>): unknown[] {
  return GAME_COLUMNS.map(([key, col]) => {
    // The store's own columns come from `own`, the rest from the source's row: not one object spread
    // from the other (in V8 `{ ...row, id, … }` gives every game a hidden class of its own).
    let v: unknown = key in own ? own[key as keyof typeof own] : row[key as keyof NewGame];
    if (v === undefined) v = col.defaultFn ? col.defaultFn() : col.default;
    if (is(v, SQL)) throw new Error(`games.${key}: an SQL default cannot go through the prepared insert`);
    return v === undefined || v === null ? null : col.mapToDriverValue(v);
  });
}

/**
 * Inserts a batch of games in one transaction; a game whose (user, provider, sourceId) exists is
 * skipped, so a re-sync never duplicates. `pgnText` entries are stored content-addressed first.
 * `alongside` runs inside the same transaction (sync cursors advance atomically with the games they cover).
 */
export function insertGames(
  store: Store,
  clock: Clock,
  batch: Array<{ game: NewGame; pgnText?: string }>,
  alongside?: () => void,
): { inserted: number; skipped: number } {
  const now = clock.now().toISOString();
  const st = preparedOnce(store, insertStatements);
  let inserted = 0;
  store.sqlite
    .transaction(() => {
      for (const { game, pgnText } of batch) {
        if (pgnText) storePgn(store, pgnText, now);
        inserted += st.game.run(gameValues(game, { id: randomUUID(), createdAt: now, version: 1 })).changes;
      }
      // Whatever must commit with these games (a sync cursor) commits in the same transaction, or not at all.
      alongside?.();
    })
    .immediate();
  return { inserted, skipped: batch.length - inserted };
}
