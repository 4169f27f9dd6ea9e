import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SOURCE_GAME_NOT_FOUND } from '../../src/services/coaching/positions.js';
import { addCoachingEntry } from '../../tools/coaching/add_coaching_entry.js';
import { listSavedPositions } from '../../tools/coaching/list_saved_positions.js';
import { removeSavedPosition } from '../../tools/coaching/remove_saved_position.js';
import { savePosition } from '../../tools/coaching/save_position.js';
import { setTrainingFocus } from '../../tools/coaching/set_training_focus.js';
import { uploadStudyGame } from '../../tools/study/upload_study_game.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { addPlayedGame, countRows, OPERA_FENS, OPERA_PGN, RUY_LOPEZ_FEN } from '../services/coaching/coachingFixtures.js';

let app: TestApp;
beforeEach(() => {
  app = makeTestApp();
});
afterEach(() => app.close());

type PositionBody = {
  id: string;
  fen: string;
  label: string;
  why: string | null;
  focusId: string | null;
  lastQuizzedAt: string | null;
  quizHistory: Array<{ correct: boolean; at: string }>;
  dueForQuiz: boolean;
  error?: string;
};
const save = async (input: unknown, token: string) => {
  const res = await app.call(savePosition, input, token);
  return { status: res.status, body: res.body as PositionBody };
};
const positions = () => countRows(app.deps.store, 'saved_positions');

/** Fills the owner's collection up to `n` positions directly in the store (the Opera game's positions). */
function prefill(userId: string, n: number) {
  const insert = app.deps.store.sqlite.prepare(
    'INSERT INTO saved_positions (id, user_id, fen, label, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  app.deps.store.sqlite.transaction(() => {
    for (let i = 0; i < n; i += 1) insert.run(randomUUID(), userId, OPERA_FENS[i % OPERA_FENS.length], `p${i}`, '2026-01-01T00:00:00.000Z');
  })();
}

describe('save_position', () => {
  test('saves a legal FEN with label and why; never quizzed, so due', async () => {
    const { token } = app.addUser();
    const res = await save({ fen: RUY_LOPEZ_FEN, label: 'Ruy Lopez', why: 'Know the plans' }, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      fen: 'r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3',
      label: 'Ruy Lopez',
      why: 'Know the plans',
      lastQuizzedAt: null,
      quizHistory: [],
      dueForQuiz: true,
    });
  });

  test.each([
    ['label of 80', { label: 'x'.repeat(80) }, 200],
    ['label of 81', { label: 'x'.repeat(81) }, 400],
    ['empty label', { label: '' }, 400],
    ['why of 500', { label: 'l', why: 'y'.repeat(500) }, 200],
    ['why of 501', { label: 'l', why: 'y'.repeat(501) }, 400],
  ])('%s → %i', async (_, extra, status) => {
    const { token } = app.addUser();
    expect((await save({ fen: RUY_LOPEZ_FEN, ...extra }, token)).status).toBe(status);
    expect(positions()).toBe(status === 200 ? 1 : 0);
  });

  test.each([
    ['not a FEN', 'hello'],
    ['two white kings', '4k3/8/8/8/8/8/8/3KK3 w - - 0 1'],
    ['the side not to move in check', '4k3/8/8/8/8/8/8/3KR3 w - - 0 1'],
    ['a pawn on the last rank', 'P3k3/8/8/8/8/8/8/4K3 w - - 0 1'],
  ])('an illegal position (%s) is a 400 and nothing is stored', async (_, fen) => {
    const { token } = app.addUser();
    const res = await save({ fen, label: 'x' }, token);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^illegal FEN/);
    expect(positions()).toBe(0);
  });

  test.each([
    ['no fen and no game', { label: 'x' }],
    ['gameId without ply', { label: 'x', gameId: 'g' }],
    ['ply without gameId', { label: 'x', fen: RUY_LOPEZ_FEN, ply: 3 }],
  ])('400 for %s', async (_, input) => {
    const { token } = app.addUser();
    expect((await save(input, token)).status).toBe(400);
  });

  test('500 per user: the 500th is saved, the 501st is a 409 and nothing is stored', async () => {
    const { user, token } = app.addUser();
    prefill(user.id, 499);
    expect((await save({ fen: RUY_LOPEZ_FEN, label: '500th' }, token)).status).toBe(200);
    const over = await save({ fen: RUY_LOPEZ_FEN, label: '501st' }, token);
    expect(over.status).toBe(409);
    expect(over.body.error).toMatch(/500/);
    expect(positions()).toBe(500);
    // Another user is not affected by this user's count.
    expect((await save({ fen: RUY_LOPEZ_FEN, label: 'theirs' }, app.addUser().token)).status).toBe(200);
  });

  test('from an owned game with no review yet: 409 telling to request a review; nothing stored', async () => {
    const { ctx, token } = app.addUser();
    const gameId = addPlayedGame(ctx);
    const res = await save({ gameId, ply: 10, label: 'Nxb5' }, token);
    expect(res).toEqual({ status: 409, body: { error: 'that game has no review yet; request_game_review first' } });
    const study = (await app.call(uploadStudyGame, { pgn: OPERA_PGN }, token)).body as { id: string };
    const fromStudy = await save({ gameId: study.id, ply: 10, label: 'Nxb5' }, token);
    expect(fromStudy).toEqual({ status: 409, body: { error: 'that game has no review yet; request_study_analysis first' } });
    expect(positions()).toBe(0);
  });

  test('from an owned game: a game without moves is a 409, a ply past the end a 400', async () => {
    const { ctx, token } = app.addUser();
    const bare = addPlayedGame(ctx, { withMoves: false });
    expect((await save({ gameId: bare, ply: 1, label: 'x' }, token)).status).toBe(409);
    const full = addPlayedGame(ctx);
    // The Opera game has 33 plies (17.Rd8# is White's 17th move: 16 × 2 + 1).
    expect(OPERA_FENS).toHaveLength(33);
    const past = await save({ gameId: full, ply: 34, label: 'x' }, token);
    expect(past.status).toBe(400);
    expect(past.body.error).toMatch(/33 plies/);
  });

  test('a foreign game or focus answers as an unknown one and nothing is stored', async () => {
    const a = app.addUser();
    const b = app.addUser();
    const theirGame = addPlayedGame(a.ctx);
    const theirFocus = ((await app.call(setTrainingFocus, { title: 'A' }, a.token)).body as { id: string }).id;
    const foreignGame = await save({ gameId: theirGame, ply: 3, label: 'x' }, b.token);
    const unknownGame = await save({ gameId: 'nope', ply: 3, label: 'x' }, b.token);
    expect(foreignGame).toEqual(unknownGame);
    expect(foreignGame).toEqual({ status: 404, body: { error: SOURCE_GAME_NOT_FOUND } });
    const foreignFocus = await save({ fen: RUY_LOPEZ_FEN, label: 'x', focusId: theirFocus }, b.token);
    const unknownFocus = await save({ fen: RUY_LOPEZ_FEN, label: 'x', focusId: 'nope' }, b.token);
    expect(foreignFocus).toEqual(unknownFocus);
    expect(foreignFocus.status).toBe(404);
    expect(positions()).toBe(0);
  });
});

describe('list_saved_positions', () => {
  test('25 a page, newest first; a page past the end falls back to 1', async () => {
    const { token } = app.addUser();
    for (let i = 0; i < 27; i += 1) {
      await save({ fen: OPERA_FENS[i], label: `after ply ${i + 1}` }, token);
      app.clock.advance(1000);
    }
    const p1 = (await app.call(listSavedPositions, { page: 1 }, token)).body as { positions: PositionBody[]; page: number; pageCount: number; total: number };
    // 27 positions: page 1 holds 25 (ply 27 down to ply 3), page 2 the last 2.
    expect([p1.total, p1.pageCount, p1.positions.length]).toEqual([27, 2, 25]);
    expect(p1.positions[0].label).toBe('after ply 27');
    expect(p1.positions[24].label).toBe('after ply 3');
    const p2 = (await app.call(listSavedPositions, { page: 2 }, token)).body as { positions: PositionBody[] };
    expect(p2.positions.map((p) => p.label)).toEqual(['after ply 2', 'after ply 1']);
    const p9 = (await app.call(listSavedPositions, { page: 9 }, token)).body as { page: number; positions: PositionBody[] };
    expect(p9.page).toBe(1);
    expect(p9.positions[0].label).toBe('after ply 27');
  });

  test('filters by focus and by dueForQuiz (never quizzed, or latest quiz wrong)', async () => {
    const { token } = app.addUser();
    const f = ((await app.call(setTrainingFocus, { title: 'Tactics' }, token)).body as { id: string }).id;
    const never = (await save({ fen: OPERA_FENS[0], label: 'never', focusId: f }, token)).body;
    const right = (await save({ fen: OPERA_FENS[1], label: 'right' }, token)).body;
    const wrongLast = (await save({ fen: OPERA_FENS[2], label: 'wrong last', focusId: f }, token)).body;
    const quiz = (positionId: string, correct: boolean) =>
      app.call(addCoachingEntry, { kind: 'result', body: 'quiz', positionId, correct }, token);
    await quiz(right.id, false);
    await quiz(right.id, true);
    await quiz(wrongLast.id, true);
    await quiz(wrongLast.id, false);
    const labels = async (input: object) =>
      ((await app.call(listSavedPositions, input, token)).body as { positions: PositionBody[] }).positions.map((p) => p.label).sort();
    expect(await labels({ dueForQuiz: true })).toEqual(['never', 'wrong last']);
    expect(await labels({ dueForQuiz: false })).toEqual(['right']);
    expect(await labels({ focusId: f })).toEqual(['never', 'wrong last']);
    expect(await labels({ focusId: f, dueForQuiz: false })).toEqual([]);
    expect(never.dueForQuiz).toBe(true);
  });
});

describe('remove_saved_position', () => {
  test('saved → deleted: the position and its quiz history go; the log keeps the result entry', async () => {
    const { token } = app.addUser();
    const p = (await save({ fen: RUY_LOPEZ_FEN, label: 'x' }, token)).body;
    await app.call(addCoachingEntry, { kind: 'result', body: 'got it', positionId: p.id, correct: true }, token);
    expect(countRows(app.deps.store, 'position_quizzes')).toBe(1);
    const res = await app.call(removeSavedPosition, { id: p.id }, token);
    expect(res).toMatchObject({ status: 200, body: { removed: true, id: p.id } });
    expect([positions(), countRows(app.deps.store, 'position_quizzes'), countRows(app.deps.store, 'coaching_entries')]).toEqual([0, 0, 1]);
    // Idempotent as declared (issue 45): a second removal succeeds, removing nothing, and says so.
    expect(await app.call(removeSavedPosition, { id: p.id }, token)).toMatchObject({ status: 200, body: { removed: false, id: p.id } });
    expect([positions(), countRows(app.deps.store, 'position_quizzes'), countRows(app.deps.store, 'coaching_entries')]).toEqual([0, 0, 1]);
  });

  test('a foreign id answers as an unknown one and removes nothing', async () => {
    const a = app.addUser();
    const b = app.addUser();
    const p = (await save({ fen: RUY_LOPEZ_FEN, label: 'x' }, a.token)).body;
    const foreign = await app.call(removeSavedPosition, { id: p.id }, b.token);
    const unknown = await app.call(removeSavedPosition, { id: 'nope' }, b.token);
    const echoless = (r: { status: number; body: unknown }) => ({ ...r, body: { ...(r.body as object), id: "X" } });
    expect(echoless(foreign)).toEqual(echoless(unknown));
    expect(foreign).toMatchObject({ status: 200, body: { removed: false, id: p.id } });
    expect(positions()).toBe(1);
  });
});
