import type { Clock } from '../../src/clock.js';
import { insertGames, type NewGame } from '../../src/services/games/gameWriter.js';
import type { Store } from '../../src/store/db.js';

let seq = 0;

/** A complete game row for tests; every field a test does not name gets a plain default. */
export function gameRow(userId: string, g: Partial<NewGame> & Pick<NewGame, 'playedAt' | 'result'>): NewGame {
  seq += 1;
  return {
    userId,
    provider: 'siteA',
    sourceId: `t${seq}`,
    colour: 'white',
    opponent: `opp${seq}`,
    opponentRating: null,
    userRating: null,
    ratingDelta: null,
    timeClass: 'blitz',
    rated: true,
    movesCount: 0,
    sourceUrl: `https://example.test/game/${seq}`,
    ...g,
  };
}

/** Inserts the rows and returns their ids in the order given. */
export function addGames(store: Store, clock: Clock, rows: NewGame[]): string[] {
  insertGames(store, clock, rows.map((game) => ({ game })));
  const get = store.sqlite.prepare('SELECT id FROM games WHERE user_id = ? AND provider = ? AND source_id = ?');
  return rows.map((r) => (get.get(r.userId, r.provider, r.sourceId) as { id: string }).id);
}
