import { afterEach, describe, expect, test } from 'vitest';
import { memoByOwner } from '../../src/services/ownerMemo.js';
import { insertGames, type NewGame } from '../../src/services/gameWriter.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { ownerStamp } from '../../src/store/ownerStamps.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(() => app?.close());

const game = (userId: string, i: number): NewGame => ({
  userId,
  provider: 'siteB',
  sourceId: `g${i}`,
  playedAt: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00.000Z`,
  colour: 'white',
  result: 'win',
  opponent: 'someone',
  opponentRating: 1500,
  userRating: 1500,
  ratingDelta: 6,
  timeClass: 'blitz',
  rated: true,
  eco: null,
  opening: null,
  movesCount: 0,
  platformAccuracy: null,
  sourceUrl: `https://lichess.org/g${i}`,
  sanMoves: null,
  movesSource: null,
});

describe('owner stamps: game count and data version kept by triggers', () => {
  test('inserts count once (a re-synced duplicate does not), deletes uncount, every change bumps the version', () => {
    app = makeTestApp();
    const a = app.addUser().user;
    const b = app.addUser().user;
    expect(ownerStamp(app.deps.store, a.id)).toEqual({ games: 0, version: 0 });
    insertGames(app.deps.store, app.clock, [0, 1, 2].map((i) => ({ game: game(a.id, i) })));
    insertGames(app.deps.store, app.clock, [2, 3].map((i) => ({ game: game(a.id, i) }))); // g2 is skipped
    insertGames(app.deps.store, app.clock, [0].map((i) => ({ game: game(b.id, i) })));
    expect(ownerStamp(app.deps.store, a.id)).toEqual({ games: 4, version: 4 });
    expect(ownerStamp(app.deps.store, b.id)).toEqual({ games: 1, version: 1 });
    app.deps.store.sqlite.prepare("UPDATE games SET review_accuracy = 80 WHERE user_id = ? AND source_id = 'g1'").run(a.id);
    expect(ownerStamp(app.deps.store, a.id)).toEqual({ games: 4, version: 5 });
    app.deps.store.sqlite.prepare("DELETE FROM games WHERE user_id = ? AND source_id = 'g0'").run(a.id);
    expect(ownerStamp(app.deps.store, a.id)).toEqual({ games: 3, version: 6 });
    app.deps.store.sqlite
      .prepare("INSERT INTO rating_points (user_id, provider, series, date, rating) VALUES (?, 'siteB', 'blitz', '2026-01-01', 1500)")
      .run(a.id);
    expect(ownerStamp(app.deps.store, a.id)).toEqual({ games: 3, version: 7 });
    expect(ownerStamp(app.deps.store, b.id)).toEqual({ games: 1, version: 1 });
    // Deleting the owner cascades to the games and the stamp row alike.
    app.deps.store.sqlite.prepare('DELETE FROM users WHERE id = ?').run(b.id);
    expect(app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM owner_stamps WHERE user_id = ?').get(b.id)).toEqual({ n: 0 });
  });

  test('a store opened before the triggers existed gets every owner counted at open', () => {
    app = makeTestApp();
    const a = app.addUser().user;
    insertGames(app.deps.store, app.clock, [0, 1, 2].map((i) => ({ game: game(a.id, i) })));
    app.deps.store.sqlite.exec('DROP TRIGGER owner_stamps_game_insert; DELETE FROM owner_stamps;');
    insertGames(app.deps.store, app.clock, [3].map((i) => ({ game: game(a.id, i) })));
    const again = openStore(storeFile(app.dir));
    try {
      expect(ownerStamp(again, a.id).games).toBe(4);
      insertGames(again, app.clock, [4].map((i) => ({ game: game(a.id, i) })));
      expect(ownerStamp(again, a.id).games).toBe(5);
    } finally {
      again.close();
    }
  });

  test('a memoised result is recomputed after a write from another connection (another process), never served stale', () => {
    app = makeTestApp();
    const a = app.addUser().user;
    const count = () => (app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM games WHERE user_id = ?').get(a.id) as { n: number }).n;
    let computed = 0;
    const read = () => memoByOwner(app.deps.store, a.id, 'count', () => (computed += 1, count()));
    expect(read()).toBe(0);
    expect(read()).toBe(0);
    expect(computed).toBe(1);
    const other = openStore(storeFile(app.dir));
    try {
      insertGames(other, app.clock, [0, 1].map((i) => ({ game: game(a.id, i) })));
    } finally {
      other.close();
    }
    expect(read()).toBe(2);
    expect(computed).toBe(2);
    // Keys are per owner: another owner's memo is its own.
    const b = app.addUser().user;
    expect(memoByOwner(app.deps.store, b.id, 'count', () => -1)).toBe(-1);
  });
});
