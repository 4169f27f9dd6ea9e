import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/db.js';
import { scoutGames, scouts } from '../../store/schema/index.js';

export type ScoutRow = typeof scouts.$inferSelect;
export type ScoutGameRow = typeof scoutGames.$inferInsert;
export type ScoutProviderId = ScoutRow['provider'];

export const DEFAULT_MAX_GAMES = 500;
export const DEFAULT_MONTHS = 12;

/** The owner's scout of that player, or null: another owner's scout of the same player is never found. */
export function findScout(store: Store, userId: string, provider: ScoutProviderId, username: string): ScoutRow | null {
  return (
    store.db
      .select()
      .from(scouts)
      .where(and(eq(scouts.userId, userId), eq(scouts.provider, provider), eq(scouts.username, username.toLowerCase())))
      .get() ?? null
  );
}

export function listScouts(store: Store, userId: string): ScoutRow[] {
  return store.db.select().from(scouts).where(eq(scouts.userId, userId)).orderBy(scouts.provider, scouts.username).all();
}

/** The owner's scout of the player, created when new; the bounds of this request replace the stored ones. */
export function ensureScout(store: Store, clock: Clock, userId: string, provider: ScoutProviderId, username: string, bounds: { maxGames: number; months: number }): ScoutRow {
  return store.sqlite
    .transaction(() => {
      const found = findScout(store, userId, provider, username);
      if (found) {
        if (found.maxGames !== bounds.maxGames || found.months !== bounds.months) {
          store.db.update(scouts).set(bounds).where(eq(scouts.id, found.id)).run();
        }
        return { ...found, ...bounds };
      }
      const row: ScoutRow = {
        id: randomUUID(),
        userId,
        provider,
        username: username.toLowerCase(),
        maxGames: bounds.maxGames,
        months: bounds.months,
        cursor: '{}',
        status: 'never-fetched',
        statusMessage: null,
        fetchedAt: null,
        createdAt: clock.now().toISOString(),
      };
      store.db.insert(scouts).values(row).run();
      return row;
    })
    .immediate();
}

export function gameCount(store: Store, scoutId: string): number {
  return (store.sqlite.prepare('SELECT count(*) AS n FROM scout_games WHERE scout_id = ?').get(scoutId) as { n: number }).n;
}

/**
 * Stores fetched games and the scout's new cursor in one transaction (a repeat is idempotent on the
 * source's id), then keeps only the newest `maxGames` of the last `months` months. Returns how many
 * games were new.
 */
export function storeScoutGames(store: Store, scout: ScoutRow, rows: readonly ScoutGameRow[], cursor: object, oldestKept: string): number {
  const insert = store.sqlite.prepare(
    `INSERT OR IGNORE INTO scout_games (scout_id, source_id, played_at, colour, result, opponent, opponent_rating, rating, time_class, rated, eco, opening, san_moves)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return store.sqlite
    .transaction(() => {
      let inserted = 0;
      for (const r of rows) {
        inserted += insert.run(scout.id, r.sourceId, r.playedAt, r.colour, r.result, r.opponent, r.opponentRating ?? null, r.rating ?? null, r.timeClass, r.rated ? 1 : 0, r.eco ?? null, r.opening ?? null, r.sanMoves).changes;
      }
      store.sqlite.prepare('DELETE FROM scout_games WHERE scout_id = ? AND played_at < ?').run(scout.id, oldestKept);
      store.sqlite
        .prepare(
          `DELETE FROM scout_games WHERE scout_id = ? AND source_id NOT IN
             (SELECT source_id FROM scout_games WHERE scout_id = ? ORDER BY played_at DESC, source_id DESC LIMIT ?)`,
        )
        .run(scout.id, scout.id, scout.maxGames);
      store.db.update(scouts).set({ cursor: JSON.stringify(cursor) }).where(eq(scouts.id, scout.id)).run();
      return inserted;
    })
    .immediate();
}

export function setScoutStatus(store: Store, scoutId: string, values: Partial<Pick<ScoutRow, 'status' | 'statusMessage' | 'fetchedAt'>>): void {
  store.sqlite.transaction(() => store.db.update(scouts).set(values).where(eq(scouts.id, scoutId)).run()).immediate();
}

/** Removes the owner's scout of the player and its games; false when the owner has none. */
export function removeScout(store: Store, userId: string, provider: ScoutProviderId, username: string): boolean {
  return store.sqlite
    .transaction(() => {
      const found = findScout(store, userId, provider, username);
      if (!found) return false;
      store.db.delete(scouts).where(eq(scouts.id, found.id)).run();
      return true;
    })
    .immediate();
}

/** A stored game as the views read it. */
export interface ScoutGame {
  sourceId: string;
  playedAt: string;
  colour: 'white' | 'black';
  result: 'win' | 'draw' | 'loss';
  rating: number | null;
  timeClass: string;
  rated: boolean;
  sanMoves: string;
}

/** The scout's games, newest first. */
export function scoutGamesOf(store: Store, scoutId: string): ScoutGame[] {
  return (
    store.sqlite
      .prepare(
        `SELECT source_id AS sourceId, played_at AS playedAt, colour, result, rating, time_class AS timeClass, rated, san_moves AS sanMoves
           FROM scout_games WHERE scout_id = ? ORDER BY played_at DESC, source_id DESC`,
      )
      .all(scoutId) as Array<Omit<ScoutGame, 'rated'> & { rated: number }>
  ).map((g) => ({ ...g, rated: g.rated === 1 }));
}
