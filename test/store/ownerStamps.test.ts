import { afterEach, describe, expect, test } from 'vitest';
import { memoByOwner } from '../../src/services/common/ownerMemo.js';
import { DERIVATION_VERSION } from '../../src/services/review/derive.js';
import { insertGames, storePgn, type NewGame } from '../../src/services/games/gameWriter.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { ownerStamp } from '../../src/store/ownerStamps.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { addCoachingEntry } from '../../tools/coaching/add_coaching_entry.js';
import { getCoachingState } from '../../tools/coaching/get_coaching_state.js';
import { removeSavedPosition } from '../../tools/coaching/remove_saved_position.js';
import { savePosition } from '../../tools/coaching/save_position.js';
import { setTrainingFocus } from '../../tools/coaching/set_training_focus.js';
import { RUY_LOPEZ_FEN } from '../services/coaching/coachingFixtures.js';
import { listStudyGames } from '../../tools/study/list_study_games.js';
import { getProfile } from '../../tools/profile/get_profile.js';
import { getGame } from '../../tools/games/get_game.js';
import { movesKey } from '../../src/chess/pgn.js';
import { analysisRow, saveReview } from '../../src/services/review/records.js';
import { quietGame } from '../helpers/analysis.js';
import { insertReviewedGame } from '../helpers/reviewed.js';
import { uploadStudyGame } from '../../tools/study/upload_study_game.js';

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
    expect(ownerStamp(app.deps.store, a.id)).toEqual({ games: 0, version: 0, coachingVersion: 0, studyVersion: 0, accountVersion: 0, prepVersion: 0 });
    insertGames(app.deps.store, app.clock, [0, 1, 2].map((i) => ({ game: game(a.id, i) })));
    insertGames(app.deps.store, app.clock, [2, 3].map((i) => ({ game: game(a.id, i) }))); // g2 is skipped
    insertGames(app.deps.store, app.clock, [0].map((i) => ({ game: game(b.id, i) })));
    expect(ownerStamp(app.deps.store, a.id)).toEqual({ games: 4, version: 4, coachingVersion: 0, studyVersion: 0, accountVersion: 0, prepVersion: 0 });
    expect(ownerStamp(app.deps.store, b.id)).toEqual({ games: 1, version: 1, coachingVersion: 0, studyVersion: 0, accountVersion: 0, prepVersion: 0 });
    app.deps.store.sqlite.prepare("UPDATE games SET review_accuracy = 80 WHERE user_id = ? AND source_id = 'g1'").run(a.id);
    expect(ownerStamp(app.deps.store, a.id)).toEqual({ games: 4, version: 5, coachingVersion: 0, studyVersion: 0, accountVersion: 0, prepVersion: 0 });
    app.deps.store.sqlite.prepare("DELETE FROM games WHERE user_id = ? AND source_id = 'g0'").run(a.id);
    expect(ownerStamp(app.deps.store, a.id)).toEqual({ games: 3, version: 6, coachingVersion: 0, studyVersion: 0, accountVersion: 0, prepVersion: 0 });
    app.deps.store.sqlite
      .prepare("INSERT INTO rating_points (user_id, provider, series, date, rating) VALUES (?, 'siteB', 'blitz', '2026-01-01', 1500)")
      .run(a.id);
    expect(ownerStamp(app.deps.store, a.id)).toEqual({ games: 3, version: 7, coachingVersion: 0, studyVersion: 0, accountVersion: 0, prepVersion: 0 });
    expect(ownerStamp(app.deps.store, b.id)).toEqual({ games: 1, version: 1, coachingVersion: 0, studyVersion: 0, accountVersion: 0, prepVersion: 0 });
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

  test('every coaching write bumps the coaching version alone; the state read is kept per that version and follows writes from another connection', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser();
    const other = app.addUser();
    const v = () => ownerStamp(app.deps.store, user.id);
    const ok = async (tool: Parameters<TestApp['call']>[0], input: unknown) => {
      const res = await app.call(tool, input, token);
      expect(res.status).toBe(200);
      return res.body as { id: string };
    };
    const focus = await ok(setTrainingFocus, { title: 'Endgames' });
    expect(v()).toEqual({ games: 0, version: 0, coachingVersion: 1, studyVersion: 0, accountVersion: 0, prepVersion: 0 });
    await ok(setTrainingFocus, { focusId: focus.id, title: 'Rook endgames' });
    const position = await ok(savePosition, { fen: RUY_LOPEZ_FEN, label: 'x' });
    // A quiz result: the entry and the quiz row (and the position's last result) each bump it.
    await ok(addCoachingEntry, { kind: 'result', body: 'q', positionId: position.id, correct: true });
    const afterQuiz = v().coachingVersion;
    expect(afterQuiz).toBeGreaterThanOrEqual(5);
    await ok(removeSavedPosition, { id: position.id });
    expect(v().coachingVersion).toBeGreaterThan(afterQuiz);
    expect(v().version).toBe(0);
    expect(ownerStamp(app.deps.store, other.user.id).coachingVersion).toBe(0);

    const state = async () => (await app.call(getCoachingState, {}, token)).body as { entries: Array<{ body: string }> };
    expect((await state()).entries.map((e) => e.body)).toEqual(['q']);
    const first = await state();
    expect(await state()).toBe(first); // the same object: served from memory
    const elsewhere = openStore(storeFile(app.dir));
    try {
      elsewhere.sqlite
        .prepare("INSERT INTO coaching_entries (id, user_id, seq, kind, body, created_at) VALUES ('e-x', ?, 99, 'note', 'from another process', '2026-11-20T00:00:00.000Z')")
        .run(user.id);
    } finally {
      elsewhere.close();
    }
    expect((await state()).entries.map((e) => e.body)).toEqual(['from another process', 'q']);
    // Deleting the owner cascades through the coaching rows and their triggers without recreating the stamp.
    app.deps.store.sqlite.prepare('DELETE FROM users WHERE id = ?').run(user.id);
    expect(app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM owner_stamps WHERE user_id = ?').get(user.id)).toEqual({ n: 0 });
  });

  test('the study list is kept per study version, which its rows, notes, review jobs, reviews and shared analyses bump, from any connection', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser();
    const other = app.addUser();
    const v = () => ownerStamp(app.deps.store, user.id).studyVersion;
    type List = { games: Array<{ id: string; notesCount: number; review: { status: string; accuracyWhite: number | null } }>; total: number };
    const list = async () => {
      const res = await app.call(listStudyGames, {}, token);
      expect(res.status).toBe(200);
      return res.body as List;
    };
    const up = await app.call(uploadStudyGame, { pgn: '[Event "Study"]\n\n1. e4 e5 2. Nf3 {develops} Nc6 *' }, token);
    expect(up.status).toBe(200);
    const id = (up.body as { id: string }).id;
    const key = (app.deps.store.sqlite.prepare('SELECT moves_key AS k FROM study_games WHERE id = ?').get(id) as { k: string }).k;
    expect(v()).toBeGreaterThanOrEqual(2); // the row and its note
    const first = await list();
    expect(first.games.map((g) => [g.notesCount, g.review.status])).toEqual([[1, 'none']]);
    expect(await list()).toBe(first); // the same object: served from memory

    // Each write below comes from another connection, as from another process, and shows on the next read.
    const elsewhere = openStore(storeFile(app.dir));
    const changed = async (write: () => void) => {
      const before = v();
      write();
      expect(v()).toBeGreaterThan(before);
      return list();
    };
    try {
      const sql = (text: string, ...args: unknown[]) => () => void elsewhere.sqlite.prepare(text).run(...args);
      expect((await changed(sql("INSERT INTO study_notes (study_game_id, ply, text, created_at) VALUES (?, 1, 'e4!', '2026-11-20T00:00:00.000Z')", id))).games[0].notesCount).toBe(2);
      const job = sql(
        `INSERT INTO review_jobs (id, user_id, subject_kind, subject_id, moves_key, start_fen, moves_uci, status, created_at)
         VALUES ('j1', ?, 'study', ?, ?, 'startpos', 'e2e4', 'queued', '2026-11-20T00:00:00.000Z')`,
        user.id,
        id,
        key,
      );
      expect((await changed(job)).games[0].review.status).toBe('queued');
      expect((await changed(sql("UPDATE review_jobs SET status = 'running' WHERE id = 'j1'"))).games[0].review.status).toBe('running');
      const reviewed = await changed(
        sql(
          `INSERT INTO analyses (user_id, moves_key, payload, engine, depth, nodes_per_position, accuracy_white, accuracy_black, analysed_at, reviewed_at, derivation, derivation_version)
           VALUES (?, ?, '{}', 'test', 1, 1, 81.5, 77.2, '2026-11-20T00:00:00.000Z', '2026-11-20T00:00:00.000Z', '{"accuracyWhite":81.5,"accuracyBlack":77.2}', ?)`,
          user.id,
          key,
          DERIVATION_VERSION,
        ),
      );
      expect(reviewed.games[0].review).toMatchObject({ status: 'complete', accuracyWhite: 81.5 });
      // A derivation brought to a new version changes the accuracies shown: its owner is bumped.
      const rederived = await changed(sql(`UPDATE analyses SET derivation = '{"accuracyWhite":64,"accuracyBlack":77.2}' WHERE user_id = ? AND moves_key = ?`, user.id, key));
      expect(rederived.games[0].review.accuracyWhite).toBe(64);
    } finally {
      elsewhere.close();
    }
    // Nothing of this owner's moved the other owner's version.
    expect(ownerStamp(app.deps.store, other.user.id).studyVersion).toBe(0);
    // Deleting the owner cascades through study rows, notes, jobs and reviews without recreating the stamp.
    app.deps.store.sqlite.prepare('DELETE FROM users WHERE id = ?').run(user.id);
    expect(app.deps.store.sqlite.prepare('SELECT count(*) AS n FROM owner_stamps WHERE user_id = ?').get(user.id)).toEqual({ n: 0 });
  });

  test('the profile is kept per games and account version: connections, the user row and game counts from any connection show on the next read', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser();
    type P = { displayName: string; connections: Array<{ account: string; status: string }>; totals: { games: number; connections: number } };
    const profile = async () => {
      const res = await app.call(getProfile, {}, token);
      expect(res.status).toBe(200);
      return res.body as P;
    };
    const first = await profile();
    expect(first.totals).toEqual({ games: 0, connections: 0 });
    expect(await profile()).toBe(first); // the same object: served from memory
    const elsewhere = openStore(storeFile(app.dir));
    const sql = (text: string, ...args: unknown[]) => elsewhere.sqlite.prepare(text).run(...args);
    try {
      sql("INSERT INTO connections (id, user_id, provider, external_id, status, connected_at) VALUES ('c1', ?, 'siteB', 'RookRanger42', 'ok', '2026-01-01T00:00:00.000Z')", user.id);
      expect((await profile()).connections.map((c) => [c.account, c.status])).toEqual([['RookRanger42', 'ok']]);
      sql("UPDATE connections SET status = 'error' WHERE id = 'c1'");
      expect((await profile()).connections.map((c) => c.status)).toEqual(['error']);
      sql("UPDATE users SET display_name = 'Renamed' WHERE id = ?", user.id);
      expect((await profile()).displayName).toBe('Renamed');
      insertGames(elsewhere, app.clock, [{ game: game(user.id, 1) }]);
      expect((await profile()).totals).toEqual({ games: 1, connections: 1 });
      sql("DELETE FROM connections WHERE id = 'c1'");
      expect((await profile()).totals).toEqual({ games: 1, connections: 0 });
    } finally {
      elsewhere.close();
    }
  });

  test('a game\'s detail shows a change to the game or a review of it from any connection on the next read', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser();
    const other = app.addUser();
    const analysis = quietGame();
    const key = movesKey(analysis.startFen, analysis.movesUci);
    const id = insertReviewedGame(app.deps.store, user, null, { movesKey: key, movesSource: 'pgn', sanMoves: 'a3 a6 h3 h6 b3 b6' });
    // Another owner's review of the same moves exists; this owner has none yet.
    saveReview(app.deps.store, analysisRow(other.user.id, key, analysis, '2026-11-20T00:00:00.000Z'));
    type D = { opponent: string; review: { accuracyWhite?: number } | null };
    const read = async (as = token) => app.call(getGame, { id }, as);
    const first = (await read()).body as D;
    expect(first.review).toBeNull();
    // Another owner asking for the id gets the 404 an unknown id gets.
    expect((await read(other.token)).status).toBe(404);
    const elsewhere = openStore(storeFile(app.dir));
    const sql = (text: string, ...args: unknown[]) => elsewhere.sqlite.prepare(text).run(...args);
    try {
      sql("UPDATE games SET opponent = 'renamed' WHERE id = ?", id);
      expect(((await read()).body as D).opponent).toBe('renamed');
      expect(((await read()).body as D & { pgn: string | null }).pgn).toBeNull();
      const text = '[Event "x"]\n\n1. a3 a6 2. h3 h6 3. b3 b6 *\n';
      elsewhere.sqlite.transaction(() => sql('UPDATE games SET pgn_hash = ? WHERE id = ?', storePgn(elsewhere, text, '2026-11-20T00:00:00.000Z'), id))();
      expect(((await read()).body as D & { pgn: string | null }).pgn).toBe(text);
      elsewhere.sqlite.transaction(() => saveReview(elsewhere, analysisRow(user.id, key, analysis, '2026-11-20T00:00:00.000Z')))();
      expect(((await read()).body as D).review).not.toBeNull();
    } finally {
      elsewhere.close();
    }
  });
});
