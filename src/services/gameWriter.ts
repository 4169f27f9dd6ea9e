import { randomUUID } from 'node:crypto';
import { fullMoves, movesKey, sha256, type ParsedGame } from '../chess/pgn.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/db.js';
import { games, pgns } from '../store/schema/index.js';

export type GameRow = typeof games.$inferSelect;
/** A game as a source produces it; id, createdAt and version are the store's. */
export type NewGame = Omit<typeof games.$inferInsert, 'id' | 'createdAt' | 'version'>;

/** Stores PGN text under its SHA-256 (idempotent) and returns the hash. Call inside the write's transaction. */
export function storePgn(store: Store, text: string, now: string): string {
  const hash = sha256(text);
  store.db.insert(pgns).values({ hash, text, createdAt: now }).onConflictDoNothing().run();
  return hash;
}

/** The move-derived columns of a game whose full PGN is stored. */
export function movesColumns(parsed: ParsedGame, pgnHash: string) {
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
  let inserted = 0;
  store.sqlite
    .transaction(() => {
      for (const { game, pgnText } of batch) {
        if (pgnText) storePgn(store, pgnText, now);
        const res = store.db
          .insert(games)
          .values({ ...game, id: randomUUID(), createdAt: now, version: 1 })
          .onConflictDoNothing({ target: [games.userId, games.provider, games.sourceId] })
          .run();
        inserted += res.changes;
      }
      // Whatever must commit with these games (a sync cursor) commits in the same transaction, or not at all.
      alongside?.();
    })
    .immediate();
  return { inserted, skipped: batch.length - inserted };
}
