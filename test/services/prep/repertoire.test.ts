import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { RepertoireDeviations } from '../../../schemas/prep.js';
import { tools } from '../../../tools/index.js';
import { declareRepertoire, loadRepertoire, removeRepertoire, repertoireDeviations } from '../../../src/services/prep/index.js';
import { makeAnalysis } from '../../helpers/analysis.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { addGames, gameRow } from '../../helpers/games.js';
import { insertReviewedGame } from '../../helpers/reviewed.js';

// The White repertoire: 1.e4, against 1...e5 the Ruy Lopez to 3.Bb5, against 1...c5 2.Nf3 d6 3.d4.
const REPERTOIRE = '[Event "My White"]\n\n1. e4 e5 (1... c5 2. Nf3 d6 3. d4) 2. Nf3 Nc6 3. Bb5 *\n';

let app: TestApp;
let me: ReturnType<TestApp['addUser']>;

beforeEach(() => {
  app = makeTestApp();
  me = app.addUser();
});
afterEach(async () => {
  await app.close();
});

/**
 * The owner's White games, oldest first (w1 … w9), and what each is against the repertoire, by hand:
 *  w1 e4 e5 Nf3 Nc6 Bb5 a6 Ba4   win   the repertoire ends after 3.Bb5 (ply 5): repertoire-ended
 *  w2 e4 e5 Nf3 Nc6 Bc4 Bc5      loss  the owner's 3.Bc4 (ply 5) where Bb5 is prepared; reviewed: White −0.80 after it
 *  w3 e4 e5 Nf3 Nf6 Nxe5         draw  the opponent's 2...Nf6 (ply 4) where Nc6 is prepared
 *  w4 Nf3 e5 e4 Nc6 Bb5          win   transposes into 1.e4 e5 2.Nf3 at ply 3 and stays to the end: in-repertoire
 *  w5 e4 e5 Nf3 Nc6 Bc4 Nf6      win   the owner's 3.Bc4 again
 *  w6 d4 d5 c4                   loss  the owner's 1.d4 (ply 1) where e4 is prepared
 *  w7 e4 c5 Nc3 Nc6              draw  the owner's 2.Nc3 (ply 3) where Nf3 is prepared
 *  w8 e4 d5 exd5 Qxd5            loss  the opponent's 1...d5 (ply 2), no answer prepared
 *  w9 e4 d5 Nc3                  win   the opponent's 1...d5 again
 * A Black game (e4 e5) is not read.
 */
function addFixtureGames() {
  const white = [
    ['w1', 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4', 'win'],
    ['w3', 'e4 e5 Nf3 Nf6 Nxe5', 'draw'],
    ['w4', 'Nf3 e5 e4 Nc6 Bb5', 'win'],
    ['w5', 'e4 e5 Nf3 Nc6 Bc4 Nf6', 'win'],
    ['w6', 'd4 d5 c4', 'loss'],
    ['w7', 'e4 c5 Nc3 Nc6', 'draw'],
    ['w8', 'e4 d5 exd5 Qxd5', 'loss'],
    ['w9', 'e4 d5 Nc3', 'win'],
  ] as const;
  const day = (id: string) => `2026-10-0${id.slice(1)}T12:00:00.000Z`;
  addGames(app.deps.store, app.clock, [
    ...white.map(([id, san, result]) => gameRow(me.user.id, { sourceId: id, colour: 'white', result, playedAt: day(id), sanMoves: san, movesSource: 'pgn' })),
    gameRow(me.user.id, { sourceId: 'b1', colour: 'black', result: 'loss', playedAt: day('w1'), sanMoves: 'e4 e5', movesSource: 'pgn' }),
  ]);
  // w2, reviewed: evals in the side-to-move frame; after 3.Bc4 (position 5, Black to move) Black +0.80, White −0.80.
  const analysis = makeAnalysis({ sanMoves: ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5'], evals: [30, -30, 30, -30, 30, 80, -70] });
  return insertReviewedGame(app.deps.store, me.user, analysis, { sourceId: 'w2', colour: 'white', result: 'loss', playedAt: day('w2'), sanMoves: 'e4 e5 Nf3 Nc6 Bc4 Bc5' });
}

describe('repertoire against the owner\'s games', () => {
  test('the deviation table, worked out by hand', async () => {
    const w2 = addFixtureGames();
    const declared = await declareRepertoire(me.ctx, { colour: 'white', pgn: REPERTOIRE });
    // start, e4, e4 e5, +Nf3, +Nc6, +Bb5, e4 c5, +Nf3, +d6, +d4: ten positions, two lines.
    expect(declared).toMatchObject({ colour: 'white', source: 'pgn', positions: 10, lines: 2, maxPly: 5 });

    const d = RepertoireDeviations.parse((await repertoireDeviations(me.ctx, 'white')));
    expect(d).toMatchObject({ games: 9, inRepertoire: 1, repertoireEnded: 1, ownerDeviations: 4, opponentDeviations: 3, capped: false });
    expect(d.rows.map((r) => [r.playedAt.slice(8, 10), r.status, r.lastBookPly, r.deviation && [r.deviation.ply, r.deviation.san, r.deviation.by, r.deviation.lineMoves, r.deviation.prepared, r.deviation.evalAfter]])).toEqual([
      ['09', 'deviation', 1, [2, 'd5', 'opponent', 'e4', ['e5', 'c5'], null]],
      ['08', 'deviation', 1, [2, 'd5', 'opponent', 'e4', ['e5', 'c5'], null]],
      ['07', 'deviation', 2, [3, 'Nc3', 'owner', 'e4 c5', ['Nf3'], null]],
      ['06', 'deviation', 0, [1, 'd4', 'owner', '', ['e4'], null]],
      ['05', 'deviation', 4, [5, 'Bc4', 'owner', 'e4 e5 Nf3 Nc6', ['Bb5'], null]],
      ['04', 'in-repertoire', 5, null],
      ['03', 'deviation', 3, [4, 'Nf6', 'opponent', 'e4 e5 Nf3', ['Nc6'], null]],
      ['02', 'deviation', 4, [5, 'Bc4', 'owner', 'e4 e5 Nf3 Nc6', ['Bb5'], -0.8]],
      ['01', 'repertoire-ended', 5, null],
    ]);
    expect(d.rows.find((r) => r.playedAt.startsWith('2026-10-02'))!.gameId).toBe(w2);
    expect(d.linesMostOftenLeft).toEqual([
      { lineMoves: 'e4', prepared: ['e5', 'c5'], games: 2, byOwner: 0, byOpponent: 2 },
      { lineMoves: 'e4 e5 Nf3 Nc6', prepared: ['Bb5'], games: 2, byOwner: 2, byOpponent: 0 },
      { lineMoves: '', prepared: ['e4'], games: 1, byOwner: 1, byOpponent: 0 },
      { lineMoves: 'e4 c5', prepared: ['Nf3'], games: 1, byOwner: 1, byOpponent: 0 },
      { lineMoves: 'e4 e5 Nf3', prepared: ['Nc6'], games: 1, byOwner: 0, byOpponent: 1 },
    ]);
    // Worst score first (1.d4 0%), then at 50% the worse evaluation (Bc4 −0.8 before Nc3, not reviewed).
    expect(d.ownDeviations.map((g) => [g.lineMoves, g.san, g.games, g.win, g.draw, g.loss, g.score, g.evalAfter])).toEqual([
      ['', 'd4', 1, 0, 0, 1, 0, { games: 0, pawns: null }],
      ['e4 e5 Nf3 Nc6', 'Bc4', 2, 1, 0, 1, 50, { games: 1, pawns: -0.8 }],
      ['e4 c5', 'Nc3', 1, 0, 1, 0, 50, { games: 0, pawns: null }],
    ]);
    expect(d.opponentsUnanswered.map((g) => [g.lineMoves, g.san, g.games, g.score])).toEqual([
      ['e4', 'd5', 2, 50],
      ['e4 e5 Nf3', 'Nf6', 1, 50],
    ]);
  });

  test('lines typed in give the same book as the PGN; a transposition inside the repertoire is in it', async () => {
    const fromLines = await declareRepertoire(me.ctx, { colour: 'white', lines: ['1. e4 e5 2. Nf3 Nc6 3. Bb5', 'e4 c5 Nf3 d6 d4'] });
    const fromLinesBook = loadRepertoire(me.ctx, 'white').book;
    await declareRepertoire(me.ctx, { colour: 'white', pgn: REPERTOIRE });
    expect(loadRepertoire(me.ctx, 'white').book).toEqual(fromLinesBook);
    expect(fromLines).toMatchObject({ source: 'lines', positions: 10 });
    // 1.e4 c5 2.Nf3 d6 3.d4 reached as 1.Nf3 c5 2.e4 d6 3.d4: every position after ply 3 is the repertoire's.
    addGames(app.deps.store, app.clock, [gameRow(me.user.id, { sourceId: 't', colour: 'white', sanMoves: 'Nf3 c5 e4 d6 d4', movesSource: 'pgn' })]);
    expect((await repertoireDeviations(me.ctx, 'white')).rows[0]).toMatchObject({ status: 'in-repertoire', lastBookPly: 5 });
  });

  test('a study game marked as repertoire; bad input changes nothing; another owner sees none', async () => {
    const other = app.addUser();
    const pgn = '[Event "Caro study"]\n[White "Me"]\n[Black "Book"]\n[Result "*"]\n\n1. e4 c6 2. d4 d5 (2... g6) 3. Nc3 *\n';
    const up = await app.call(tools.find((t) => t.name === 'upload_study_game')!, { pgn }, me.token);
    expect(up.status).toBe(200);
    const id = (up.body as { id: string }).id;
    expect(await declareRepertoire(me.ctx, { colour: 'black', studyGameId: id })).toMatchObject({ source: 'study', studyGameId: id, positions: 7, lines: 2 });
    // Another owner's study id is an unknown id.
    await expect(declareRepertoire(other.ctx, { colour: 'black', studyGameId: id })).rejects.toThrow(/no study game with that id/);
    expect(() => loadRepertoire(other.ctx, 'black')).toThrow(/no black repertoire declared/);
    // An illegal move: 400, and the stored repertoire stays.
    await expect(declareRepertoire(me.ctx, { colour: 'black', pgn: '1. e4 e5 2. Ke3 Ke6 3. Kd5 *' })).rejects.toThrow(/not legal/);
    expect(loadRepertoire(me.ctx, 'black').repertoire.source).toBe('study');
    expect(removeRepertoire(other.ctx, 'black')).toEqual({ removed: false });
    expect(removeRepertoire(me.ctx, 'black')).toEqual({ removed: true });
    expect(() => repertoireDeviations(me.ctx, 'black')).toThrow(/no black repertoire/);
  });

  test('a study game re-uploaded with new variations: its text is replaced, and the repertoire declared from it follows (issue 37, item 7)', async () => {
    const upload = tools.find((t) => t.name === 'upload_study_game')!;
    const first = '[Event "Caro study"]\n\n1. e4 c6 2. d4 d5 (2... g6) 3. Nc3 *\n';
    const up = await app.call(upload, { pgn: first }, me.token);
    const id = (up.body as { id: string }).id;
    expect(await declareRepertoire(me.ctx, { colour: 'black', studyGameId: id })).toMatchObject({ positions: 7, lines: 2 });
    addGames(app.deps.store, app.clock, [gameRow(me.user.id, { sourceId: 'b1', colour: 'black', result: 'win', sanMoves: 'e4 c6 d4 d6 Nc3', movesSource: 'pgn' })]);
    // 2...d6 is not in the first text: the owner's deviation.
    expect((await repertoireDeviations(me.ctx, 'black')).rows[0]).toMatchObject({ status: 'deviation', lastBookPly: 3, deviation: { san: 'd6', by: 'owner' } });

    // Same mainline, a new variation 2...d6 3.Nc3: the row takes the new text.
    const second = '[Event "Caro study"]\n\n1. e4 c6 2. d4 d5 (2... g6) (2... d6 3. Nc3) 3. Nc3 *\n';
    const again = await app.call(upload, { pgn: second }, me.token);
    expect(again.body).toMatchObject({ id, duplicate: true });
    // The repertoire declared from it reads the current text: two more positions, three lines, and the game is in it.
    expect(loadRepertoire(me.ctx, 'black').repertoire).toMatchObject({ source: 'study', studyGameId: id, positions: 9, lines: 3, pgn: second });
    expect((await repertoireDeviations(me.ctx, 'black')).rows[0]).toMatchObject({ status: 'in-repertoire', lastBookPly: 5 });
  });
});

describe('deviations are computed once per change of their inputs, and bounded (issue 37, item 2)', () => {
  test("kept until the owner's games, reviews or repertoire change; another owner's writes keep it", async () => {
    const other = app.addUser();
    await declareRepertoire(me.ctx, { colour: 'white', pgn: REPERTOIRE });
    await declareRepertoire(other.ctx, { colour: 'white', pgn: REPERTOIRE });
    addFixtureGames();
    const first = await repertoireDeviations(me.ctx, 'white');
    expect((await repertoireDeviations(me.ctx, 'white'))).toBe(first);
    // Another owner's repertoire, games and scouts leave it kept.
    await declareRepertoire(other.ctx, { colour: 'white', pgn: '1. d4 *' });
    addGames(app.deps.store, app.clock, [gameRow(other.user.id, { sourceId: 'o1', colour: 'white', sanMoves: 'd4 d5', movesSource: 'pgn' })]);
    expect((await repertoireDeviations(me.ctx, 'white'))).toBe(first);
    // The owner's repertoire changes: computed again, with the new repertoire.
    await declareRepertoire(me.ctx, { colour: 'white', pgn: '1. d4 *' });
    const second = await repertoireDeviations(me.ctx, 'white');
    expect(second).not.toBe(first);
    expect(second.inRepertoire).toBe(0);
    // A new game of the owner's: computed again.
    addGames(app.deps.store, app.clock, [gameRow(me.user.id, { sourceId: 'm1', colour: 'white', sanMoves: 'd4', movesSource: 'pgn' })]);
    expect((await repertoireDeviations(me.ctx, 'white')).inRepertoire).toBe(1);
  });

  test('a repertoire of 950 repeated knight moves: games are followed to its depth and 8 plies more, and one out of it for 9 plies has left it', async () => {
    // Legal and 15 KB: 1.Nf3 Nf6 2.Ng1 Ng8, repeated (no threefold rule in a PGN's movetext).
    const shuffle = Array.from({ length: 950 }, (_, i) => ['Nf3', 'Nf6', 'Ng1', 'Ng8'][i % 4]);
    await declareRepertoire(me.ctx, { colour: 'white', lines: [shuffle.join(' ')] });
    // The shuffle's four positions are 3 plies deep at most (issue 44: not 950), so games are followed to ply 3 + 8 = 11.
    // g1: the shuffle for 100 plies, then e4: in the repertoire as far as it is followed (ply 11).
    // g2: after 1.Nf3 Nf6 (ply 2, in it) the queen's knights go out and come home in 12 plies (a knight comes home in
    // an even number of moves); out of it for more than 8 plies, the game left it at 2.Nc3.
    // g3: the same, home in 8 plies: back in the book at ply 10 (a transposition), and 6.e4 leaves it there.
    const g1 = [...shuffle.slice(0, 100), 'e4'].join(' ');
    const g2 = 'Nf3 Nf6 Nc3 Nc6 Nb5 Nb4 Nc3 Nc6 Nb5 Nb4 Nc3 Nc6 Nb1 Nb8 e4';
    const g3 = 'Nf3 Nf6 Nc3 Nc6 Nb5 Nb4 Nc3 Nc6 Nb1 Nb8 e4';
    addGames(app.deps.store, app.clock, [
      gameRow(me.user.id, { sourceId: 'g1', colour: 'white', sanMoves: g1, movesSource: 'pgn', playedAt: '2026-11-01T00:00:00Z' }),
      gameRow(me.user.id, { sourceId: 'g2', colour: 'white', sanMoves: g2, movesSource: 'pgn', playedAt: '2026-11-02T00:00:00Z' }),
      gameRow(me.user.id, { sourceId: 'g3', colour: 'white', sanMoves: g3, movesSource: 'pgn', playedAt: '2026-11-03T00:00:00Z' }),
    ]);
    const rows = (await repertoireDeviations(me.ctx, 'white')).rows;
    expect(rows.map((r) => [r.status, r.lastBookPly, r.deviation?.ply ?? null])).toEqual([
      ['deviation', 10, 11], // g3
      ['deviation', 2, 3], // g2
      ['in-repertoire', 11, null], // g1
    ]);
  });
});
