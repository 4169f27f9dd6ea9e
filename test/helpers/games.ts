import type { Store } from '../../src/store/db.js';
import type { Clock } from '../../src/clock.js';
import { insertGames, type NewGame } from '../../src/services/games/gameWriter.js';

/** A game row with plain defaults; tests override what they assert on. */
export function gameRow(userId: string, over: Partial<NewGame> & { sourceId: string }): NewGame {
  return {
    userId,
    provider: 'siteB',
    playedAt: '2026-01-01T12:00:00.000Z',
    colour: 'white',
    result: 'win',
    opponent: 'someone',
    opponentRating: 1500,
    userRating: 1500,
    ratingDelta: 5,
    timeClass: 'blitz',
    timeControl: '180+2',
    rated: true,
    eco: null,
    opening: null,
    event: null,
    movesCount: 0,
    platformAccuracy: null,
    reviewAccuracy: null,
    sourceUrl: `https://lichess.org/${over.sourceId}`,
    sanMoves: null,
    movesSource: null,
    movesKey: null,
    pgnHash: null,
    clocks: null,
    ...over,
  };
}

export function addGames(store: Store, clock: Clock, rows: NewGame[]): void {
  insertGames(store, clock, rows.map((game) => ({ game })));
}
