import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { movesKey, START_FEN } from '../../src/chess/pgn.js';
import { STUDY_NOT_FOUND } from '../../src/services/study/study.js';
import { analyses, pgns, reviewJobs, studyGames, studyNotes } from '../../src/store/schema/index.js';
import { deleteStudyGame } from '../../tools/study/delete_study_game.js';
import { listStudyGames } from '../../tools/study/list_study_games.js';
import { requestStudyAnalysis } from '../../tools/study/request_study_analysis.js';
import { uploadStudyGame } from '../../tools/study/upload_study_game.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { dataPath } from '../helpers/fixtures.js';
import { makeAnalysis } from '../helpers/analysis.js';
import { analysisRow, saveReview } from '../../src/services/review/records.js';

// Scholar's mate, with comments on plies 1 and 3 and a comment before the first move.
const SCHOLAR_A = `[Event "Club night"]
[White "Alice"]
[Black "Bob"]
[Date "2026.01.02"]
[Result "1-0"]

{A classic trap} 1. e4 {King's pawn} e5 2. Bc4 {Eyes f7} Nc6 3. Qh5 Nf6 4. Qxf7# 1-0`;

// The same mainline with other headers, clocks, a different comment on ply 3 and a new one on ply 5.
const SCHOLAR_B = `[Event "Blitz"]
[White "Carol"]
[Black "Dan"]
[Result "1-0"]

1. e4 {[%clk 0:03:00]} e5 {[%clk 0:03:00]} 2. Bc4 {Another view of ply 3} Nc6 3. Qh5 {Threatens mate} Nf6 4. Qxf7# 1-0`;

const SCHOLAR_UCI = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7'];

/** The owner's completed review of the Scholar's mate mainline, as the queue stores it; returns the stored accuracies. */
function storeReview(app: TestApp, userId: string): { accuracyWhite: number; accuracyBlack: number } {
  const a = makeAnalysis({ sanMoves: ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#'], evals: [30, -30, 30, -30, 40, -40, { mate: 1 }] });
  const key = movesKey(START_FEN, SCHOLAR_UCI);
  saveReview(app.deps.store, analysisRow(userId, key, a, '2026-11-20T11:00:00Z'));
  return app.deps.store.db.select({ accuracyWhite: analyses.accuracyWhite, accuracyBlack: analyses.accuracyBlack }).from(analyses).get()!;
}

let app: TestApp;
beforeEach(() => {
  app = makeTestApp();
});
afterEach(() => app.close());

const count = (table: typeof studyGames | typeof studyNotes | typeof analyses | typeof pgns) =>
  app.deps.store.db.select({ n: sql<number>`count(*)` }).from(table).get()!.n;

describe('upload_study_game', () => {
  test('stores a new row with headers, length, opening and per-ply notes', async () => {
    const { token } = app.addUser();
    const res = await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, token);
    expect(res.status).toBe(200);
    const row = res.body as Record<string, unknown>;
    expect(row).toMatchObject({
      white: 'Alice',
      black: 'Bob',
      event: 'Club night',
      date: '2026.01.02',
      result: '1-0',
      // 7 plies = White's 4 moves and Black's 3: ceil(7/2) = 4 full moves.
      plyCount: 7,
      movesCount: 4,
      startFen: START_FEN,
      // Preface (ply 0) + plies 1 and 3.
      notesCount: 3,
      notesAdded: 3,
      duplicate: false,
      review: { status: 'none', accuracyWhite: null, accuracyBlack: null },
    });
    // data/openings/c.tsv names "1. e4 e5 2. Bc4" as C23 Bishop's Opening; no deeper line of this game is named.
    expect(row.opening).toEqual({ eco: 'C23', name: "Bishop's Opening" });
    const stored = app.deps.store.db.select().from(studyGames).get()!;
    expect(stored.movesKey).toBe(movesKey(START_FEN, SCHOLAR_UCI));
    expect(stored.uciMoves).toBe(SCHOLAR_UCI.join(' '));
  });

  test('the same mainline returns the same row, keeps its analysis, and only fills plies with no note', async () => {
    const me = app.addUser();
    const { token } = me;
    const first = (await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, token)).body as { id: string };
    // An analysis of that mainline exists (as the engine would store it).
    const { accuracyWhite, accuracyBlack } = storeReview(app, me.user.id);
    const second = await app.call(uploadStudyGame, { pgn: SCHOLAR_B }, token);
    expect(second.status).toBe(200);
    // Ply 3 already had "Eyes f7": kept. Ply 5 "Threatens mate" is new. Clocks are not notes.
    expect(second.body).toMatchObject({
      id: first.id,
      duplicate: true,
      notesAdded: 1,
      notesCount: 4,
      // The row keeps its headers (issue 45: a duplicate never renames the stored game) and says so.
      white: 'Alice',
      black: 'Bob',
      event: 'Club night',
      note: "these moves are already in the collection as Alice – Bob (2026.01.02); it keeps its headers (this upload's Event, White, Black differ and were not taken; delete_study_game it and upload again to store it under new headers); this upload's variations and comments replace its text; 1 note added (a ply with a note keeps it)",
      review: { status: 'complete', accuracyWhite, accuracyBlack },
    });
    expect(count(studyGames)).toBe(1);
    const notes = app.deps.store.db.select().from(studyNotes).all().sort((a, b) => a.ply - b.ply);
    expect(notes.map((n) => [n.ply, n.text])).toEqual([
      [0, 'A classic trap'],
      [1, "King's pawn"],
      [3, 'Eyes f7'],
      [5, 'Threatens mate'],
    ]);
  });

  test("the Opera game's moves under the uploader's own headers: the stored Morphy game keeps its names and date, and the answer says so (issue 45 item 13)", async () => {
    const { token } = app.addUser();
    const opera = readFileSync(dataPath('library/morphy-brunswick-isouard-1858/game.pgn'), 'utf8');
    const first = (await app.call(uploadStudyGame, { pgn: opera }, token)).body as { id: string };
    const mine = `[Event "Casual"]\n[White "Me"]\n[Black "Friend"]\n[Date "????.??.??"]\n[Result "1-0"]\n\n${opera.slice(opera.indexOf('1. e4'))}`;
    const res = await app.call(uploadStudyGame, { pgn: mine }, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: first.id,
      duplicate: true,
      notesAdded: 0,
      white: 'Morphy, Paul',
      black: 'Duke Karl of Brunswick and Count Isouard',
      event: 'Casual game',
      date: '1858.??.??',
      // The date the upload left unknown is no difference; the names and the event are.
      note: "these moves are already in the collection as Morphy, Paul – Duke Karl of Brunswick and Count Isouard (1858.??.??); it keeps its headers (this upload's Event, White, Black differ and were not taken; delete_study_game it and upload again to store it under new headers); its text is unchanged; 0 notes added (a ply with a note keeps it)",
    });
    // Nothing stored changed: the same row, headers and text; the upload allowance was not spent.
    const row = app.deps.store.db.select().from(studyGames).get()!;
    expect(JSON.parse(row.headers)).toMatchObject({ White: 'Morphy, Paul', Date: '1858.??.??', Site: 'Paris FRA' });
    expect(count(pgns)).toBe(1);
    // The first upload answers with no note.
    expect((await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, token)).body).toMatchObject({ duplicate: false, note: null });
  });

  test('a duplicate fills the headers the stored game did not know, and keeps the rest', async () => {
    const { token } = app.addUser();
    await app.call(uploadStudyGame, { pgn: '[White "Ann"]\n[Date "????.??.??"]\n\n1. d4 d5 2. c4 *' }, token);
    const res = await app.call(uploadStudyGame, { pgn: '[White "Bea"]\n[Black "Cy"]\n[Date "2026.03.04"]\n\n1. d4 d5 2. c4 {QGD} *' }, token);
    expect(res.body).toMatchObject({ duplicate: true, white: 'Ann', black: 'Cy', date: '2026.03.04', notesAdded: 1 });
    expect((res.body as { note: string }).note).toContain("this upload's White differ and were not taken");
    // The stored text carries the merged headers and the new comment; it parses back to the same game.
    const text = app.deps.store.db.select().from(pgns).all().map((p) => p.text).find((t) => t.includes('QGD'))!;
    expect(text).toBe('[White "Ann"]\n[Date "2026.03.04"]\n[Black "Cy"]\n\n1. d4 d5 2. c4 {QGD} *');
  });

  test('two users uploading the same moves get separate rows', async () => {
    const a = app.addUser();
    const b = app.addUser();
    const ra = (await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, a.token)).body as { id: string };
    const rb = (await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, b.token)).body as { id: string; duplicate: boolean };
    expect(rb.id).not.toBe(ra.id);
    expect(rb.duplicate).toBe(false);
  });

  test.each([
    ['multi-game', `${SCHOLAR_A}\n\n${SCHOLAR_B}`, /^multi-game PGN/],
    ['moveless', '[Event "x"]\n[Result "*"]\n\n*', /^moveless PGN/],
    ['unparseable', '1. e4 {never closed', /^unparseable PGN/],
    ['illegal', '1. e4 e5 2. Ke3 *', /^unparseable PGN \(illegal move\)/],
    // Black's king on e8 faces the rook on e2 with White to move: Black, not to move, is in check.
    ['side-not-to-move-in-check', '[FEN "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. Ra2 *', /^illegal position: .*the side not to move \(Black\) is in check/],
    ['null-move', '1. e4 -- 2. d4 *', /^null move: 1…-- is a null move/],
  ])('a %s PGN is refused with 400 saying which, and nothing is stored', async (_, pgn, message) => {
    const { token } = app.addUser();
    const res = await app.call(uploadStudyGame, { pgn }, token);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toMatch(message);
    expect([count(studyGames), count(studyNotes), count(pgns)]).toEqual([0, 0, 0]);
  });

  test('size limit: 100,000 characters pass, 100,001 are refused', async () => {
    const { token } = app.addUser();
    // Pad the Scholar's mate with a trailing comment on the last move to reach exactly the limit.
    const base = SCHOLAR_A.replace(' 1-0', '').replace(/1-0`?$/, '');
    const fill = (n: number) => `${base} {${'x'.repeat(n - base.length - 3)}}`;
    expect(fill(100_000)).toHaveLength(100_000);
    expect((await app.call(uploadStudyGame, { pgn: fill(100_000) }, token)).status).toBe(200);
    const over = await app.call(uploadStudyGame, { pgn: fill(100_001) }, token);
    expect(over.status).toBe(400);
    expect((over.body as { error: string }).error).toMatch(/^pgn:/);
  });

  test('only {pgn} is accepted', async () => {
    const { token } = app.addUser();
    const res = await app.call(uploadStudyGame, { pgn: SCHOLAR_A, title: 'x' }, token);
    expect(res.status).toBe(400);
    expect(count(studyGames)).toBe(0);
  });
});

describe('list_study_games', () => {
  test('newest first, only the owner’s rows, with total', async () => {
    const a = app.addUser();
    const b = app.addUser();
    await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, a.token);
    app.clock.advance(60_000);
    const ruy = '[White "W"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *';
    await app.call(uploadStudyGame, { pgn: ruy }, a.token);
    await app.call(uploadStudyGame, { pgn: SCHOLAR_B }, b.token);
    const res = await app.call(listStudyGames, {}, a.token);
    const body = res.body as { games: Array<{ white: string; opening: { eco: string; name: string } | null }>; total: number };
    expect(body.total).toBe(2);
    expect(body.games.map((g) => g.white)).toEqual(['W', 'Alice']);
    expect(body.games[0].opening?.name).toBe('Ruy Lopez');
    expect(body.games[0].opening?.eco).toBe('C60');
  });
});

describe('list_study_games review status', () => {
  test('queued, running or failed from the owner’s latest review job of those moves; complete from the analysis', async () => {
    const a = app.addUser();
    const b = app.addUser();
    const row = (await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, a.token)).body as { id: string };
    const key = movesKey(START_FEN, SCHOLAR_UCI);
    const status = async (token: string) =>
      ((await app.call(listStudyGames, {}, token)).body as { games: Array<{ review: { status: string } }> }).games[0].review.status;
    const job = (userId: string, id: string, st: 'queued' | 'running' | 'failed', createdAt: string) =>
      app.deps.store.db
        .insert(reviewJobs)
        .values({ id, userId, subjectKind: 'study', subjectId: row.id, movesKey: key, startFen: START_FEN, movesUci: SCHOLAR_UCI.join(' '), status: st, createdAt })
        .run();
    expect(await status(a.token)).toBe('none');
    job(a.user.id, 'j1', 'failed', '2026-11-20T10:00:00Z');
    expect(await status(a.token)).toBe('failed');
    job(a.user.id, 'j2', 'running', '2026-11-20T11:00:00Z');
    expect(await status(a.token)).toBe('running');
    // Another user's job on the same moves says nothing about this user's row.
    await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, b.token);
    expect(await status(b.token)).toBe('none');
    storeReview(app, a.user.id);
    // Review state is each owner's own: b holding the same moves sees nothing of a's review.
    expect([await status(a.token), await status(b.token)]).toEqual(['complete', 'none']);
  });
});

describe('delete_study_game', () => {
  test('removes the row and its notes; the shared analysis and PGN text stay', async () => {
    const me = app.addUser();
    const { token } = me;
    const row = (await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, token)).body as { id: string };
    storeReview(app, me.user.id);
    expect(count(studyNotes)).toBe(3);
    const res = await app.call(deleteStudyGame, { id: row.id }, token);
    expect(res).toMatchObject({ status: 200, body: { deleted: true, id: row.id, notesDeleted: 3 } });
    expect([count(studyGames), count(studyNotes), count(analyses), count(pgns)]).toEqual([0, 0, 1, 1]);
    // Irreversible, and idempotent as declared (issue 45): a second delete succeeds, deleting nothing, and says so.
    const again = await app.call(deleteStudyGame, { id: row.id }, token);
    expect(again).toMatchObject({ status: 200, body: { deleted: false, id: row.id, notesDeleted: 0 } });
    expect([count(studyGames), count(studyNotes), count(analyses), count(pgns)]).toEqual([0, 0, 1, 1]);
  });

  test('a foreign id answers exactly as an unknown one and deletes nothing', async () => {
    const a = app.addUser();
    const b = app.addUser();
    const row = (await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, a.token)).body as { id: string };
    const before = [count(studyGames), count(studyNotes)];
    const foreign = await app.call(deleteStudyGame, { id: row.id }, b.token);
    const unknown = await app.call(deleteStudyGame, { id: 'no-such-id' }, b.token);
    // The same answer but for the id echoed back: another owner's id tells nothing.
    const echoless = (r: { status: number; body: unknown }) => ({ ...r, body: { ...(r.body as object), id: "X" } });
    expect(echoless(foreign)).toEqual(echoless(unknown));
    expect(foreign).toMatchObject({ status: 200, body: { deleted: false, id: row.id, notesDeleted: 0 } });
    expect([count(studyGames), count(studyNotes)]).toEqual(before);
  });
});

describe('request_study_analysis', () => {
  test('unknown and foreign ids are the same 404, before any review work', async () => {
    const a = app.addUser();
    const b = app.addUser();
    const row = (await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, a.token)).body as { id: string };
    const foreign = await app.call(requestStudyAnalysis, { id: row.id }, b.token);
    const unknown = await app.call(requestStudyAnalysis, { id: 'nope' }, b.token);
    expect(foreign).toEqual(unknown);
    expect(foreign).toMatchObject({ status: 404, body: { error: STUDY_NOT_FOUND } });
  });

  test('wait outside 0..45 is refused with 400', async () => {
    const { token } = app.addUser();
    const row = (await app.call(uploadStudyGame, { pgn: SCHOLAR_A }, token)).body as { id: string };
    expect((await app.call(requestStudyAnalysis, { id: row.id, wait: 46 }, token)).status).toBe(400);
  });
});

describe('the upload allowance (issue 30)', () => {
  test('a refused upload or an exact duplicate spends nothing; a new game or new notes spend one unit each', async () => {
    const limited = makeTestApp({ env: { CFP_RATE_LIMITS: 'studyUpload:2/3600' } });
    try {
      const { token } = limited.addUser();
      const upload = (pgn: string) => limited.call(uploadStudyGame, { pgn }, token);
      // Refused: an illegal move, a stray brace, no moves at all.
      for (const bad of ['1. e4 e5 2. Ke3 *', '1. e4 { unclosed e5 *', '[Event "x"]']) expect((await upload(bad)).status, bad).toBe(400);
      expect((await upload(SCHOLAR_A)).status).toBe(200); // unit 1
      // The same PGN again changes nothing, however often.
      for (let i = 0; i < 3; i++) expect((await upload(SCHOLAR_A)).body).toMatchObject({ duplicate: true, notesAdded: 0 });
      // The same mainline with a new note changes something: unit 2.
      expect((await upload(SCHOLAR_B)).body).toMatchObject({ duplicate: true, notesAdded: 1 });
      // The allowance of 2 is now spent: a new game is refused, and nothing of it is stored.
      const third = await upload('1. d4 d5 2. c4 *');
      expect(third.status).toBe(429);
      expect(limited.deps.store.db.select({ n: sql<number>`count(*)` }).from(studyGames).get()!.n).toBe(1);
    } finally {
      await limited.close();
    }
  });
});
