import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { addManualGame, importPgnFile, timeClassOf } from '../../../src/services/games/imports.js';
import { insertGames } from '../../../src/services/games/gameWriter.js';
import { ECF_TYPES, parseEcfGames } from '../../../src/sources/ecf/parse.js';
import { rowOf } from '../../../src/services/sync/write.js';
import { connectSource } from '../../../src/services/sync/connections.js';
import { games, users } from '../../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { FIXTURES, fixture } from '../sync/sourceFixtures.js';

let app: TestApp;
afterEach(async () => app?.close());

const rowsOf = (userId: string) => app.deps.store.db.select().from(games).where(eq(games.userId, userId)).orderBy(games.playedAt).all();

describe('PGN import', () => {
  it('imports a multi-game file game by game; the broken game is reported with its index and reason', async () => {
    app = makeTestApp();
    const { user } = app.addUser('Rowan Ranger');
    connectSource(app.deps, user.id, 'siteB', 'RookRanger42');
    const me = app.deps.store.db.select().from(users).where(eq(users.id, user.id)).get()!;
    const report = await importPgnFile(app.deps, me, `${FIXTURES}/pgn/lichess_with_broken.pgn`, { batchSize: 2 });
    expect(report).toEqual({
      games: 6,
      imported: 5,
      duplicates: 0,
      linkedToFed: 0,
      // 5. Ke3 is illegal: White's king on e1 cannot reach e3; it is the 9th ply.
      errors: [{ index: 3, reason: '5.Ke3 is not legal in that position', white: 'RookRanger42', black: 'Careless, Carl', date: '2025.03.05' }],
    });
    const xm = rowsOf(user.id).find((r) => r.sourceId === 'lichess:Xm8dPq2L')!;
    expect(xm).toMatchObject({
      provider: 'pgn',
      playedAt: '2025-03-09T14:30:22.000Z', // UTCDate + UTCTime
      colour: 'black',
      result: 'win',
      opponent: 'Knightfall_77',
      opponentRating: 1790,
      userRating: 1811,
      ratingDelta: 7, // BlackRatingDiff "+7"
      timeClass: 'rapid', // 600 + 40×0 = 600 s
      timeControl: '600+0',
      rated: true,
      eco: 'D51',
      opening: "Queen's Gambit Declined: Modern Variation, Knight Defense",
      event: null,
      movesCount: 14,
      platformAccuracy: null,
      sourceUrl: 'https://lichess.org/Xm8dPq2L',
      movesSource: 'pgn',
    });
    expect((JSON.parse(xm.clocks!) as number[]).slice(0, 4)).toEqual([600, 600, 590, 589]); // whole-second [%clk]
    // The same file again: every game is a duplicate, the broken one is reported again.
    const again = await importPgnFile(app.deps, me, `${FIXTURES}/pgn/lichess_with_broken.pgn`);
    expect(again).toMatchObject({ games: 6, imported: 0, duplicates: 5 });
    expect(rowsOf(user.id)).toHaveLength(5);
  });

  it('an over-the-board PGN of games the ECF already published links to those results instead of duplicating', async () => {
    app = makeTestApp();
    const { user } = app.addUser('Rowan Ranger');
    const ecf = parseEcfGames(JSON.parse(fixture('ecf/player_games_standard.json')), ECF_TYPES[0], '998877C', 'https://example.test/p');
    insertGames(app.deps.store, app.deps.clock, ecf.map((r) => ({ game: rowOf(user.id, r) })));
    // "Ranger, Rowan" in the file is the display name "Rowan Ranger" turned round.
    const report = await importPgnFile(app.deps, user, `${FIXTURES}/pgn/manual_import_otb.pgn`);
    expect(report).toMatchObject({ games: 2, imported: 0, linkedToFed: 2, errors: [] });
    const rows = rowsOf(user.id);
    expect(rows).toHaveLength(6);
    const whitlock = rows.find((r) => r.sourceId === 'S:2025-03-18:W:665544:LN00006021')!;
    expect(whitlock).toMatchObject({ provider: 'fed', movesSource: 'pgn', movesCount: 15, timeControl: '5400+30', version: 2, result: 'draw' });
    expect(whitlock.sanMoves!.split(' ').slice(0, 4)).toEqual(['d4', 'Nf6', 'c4', 'e6']);
    expect(rows.find((r) => r.sourceId === 'S:2025-03-30:B:776655:CG00018804')).toMatchObject({ movesSource: 'pgn', movesCount: 16 });
  });

  it('--as picks the side when the names do not match the profile', async () => {
    app = makeTestApp();
    const { user } = app.addUser('Somebody Else');
    const none = await importPgnFile(app.deps, user, `${FIXTURES}/pgn/manual_import_otb.pgn`);
    expect(none.errors.map((e) => e.index)).toEqual([1, 2]);
    expect(none.errors[0].reason).toContain('use --as');
    const asBlack = await importPgnFile(app.deps, user, `${FIXTURES}/pgn/manual_import_otb.pgn`, { as: 'Lindqvist, Sara' });
    // Lindqvist is White in game 2 only; game 1 has neither name.
    expect(asBlack).toMatchObject({ imported: 1 });
    expect(rowsOf(user.id)[0]).toMatchObject({ colour: 'white', opponent: 'Ranger, Rowan', result: 'draw', playedAt: '2025-03-30T12:00:00.000Z', timeClass: 'classical', event: 'Fictional Spring Congress 2025', rated: false, userRating: 1931, opponentRating: 1884 });
  });

  it.each([
    ['300+3', 'blitz'], // 300 + 120 = 420
    ['180+2', 'blitz'], // 180 + 80 = 260
    ['60+0', 'bullet'],
    ['15+0', 'ultraBullet'],
    ['900+10', 'rapid'], // 900 + 400 = 1300
    ['1800+0', 'classical'],
    ['40/5400:1800+30', 'classical'], // 5400 + 1200
    ['1/86400', 'correspondence'],
    ['-', 'correspondence'],
  ])('time class of %s is %s', (tc, cls) => expect(timeClassOf(tc)).toBe(cls));
});

describe('manual entry', () => {
  it('records a result without moves, once', () => {
    app = makeTestApp();
    const { user } = app.addUser('Rowan Ranger');
    const input = { opponent: 'Brennan, Cathal', result: 'win' as const, colour: 'black' as const, date: '2025-04-02', timeControl: '5400+30', event: 'Club match', userRating: 1880, opponentRating: 1860, rated: true };
    const first = addManualGame(app.deps, user, input);
    expect(first.duplicate).toBe(false);
    expect(addManualGame(app.deps, user, input)).toEqual({ id: first.id, duplicate: true });
    expect(rowsOf(user.id)).toEqual([
      expect.objectContaining({ provider: 'manual', playedAt: '2025-04-02T12:00:00.000Z', colour: 'black', result: 'win', opponent: 'Brennan, Cathal', timeClass: 'classical', timeControl: '5400+30', rated: true, movesCount: 0, movesSource: null, sanMoves: null, sourceUrl: '', userRating: 1880, opponentRating: 1860, ratingDelta: null }),
    ]);
  });

  it('takes the moves from a PGN and refuses a bad one', () => {
    app = makeTestApp();
    const { user } = app.addUser('Rowan Ranger');
    const pgn = '[Event "?"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *';
    addManualGame(app.deps, user, { opponent: 'X', result: 'draw', colour: 'white', date: '2025-04-03', pgn });
    expect(rowsOf(user.id)[0]).toMatchObject({ movesSource: 'pgn', movesCount: 3, sanMoves: 'e4 e5 Nf3 Nc6 Bb5', opening: 'Ruy Lopez', eco: 'C60' });
    expect(() => addManualGame(app.deps, user, { opponent: 'X', result: 'draw', colour: 'white', date: '2025-04-03', pgn: '1. e4 e5 2. Ke3 *' })).toThrow('2.Ke3 is not legal');
  });
});
