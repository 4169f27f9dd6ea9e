import { afterEach, describe, expect, test } from 'vitest';
import { addCoachingEntry } from '../../tools/coaching/add_coaching_entry.js';
import { getCoachingState } from '../../tools/coaching/get_coaching_state.js';
import { removeSavedPosition } from '../../tools/coaching/remove_saved_position.js';
import { savePosition } from '../../tools/coaching/save_position.js';
import { setTrainingFocus } from '../../tools/coaching/set_training_focus.js';
import { uploadStudyGame } from '../../tools/study/upload_study_game.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { OPERA_FENS, OPERA_PGN, RUY_LOPEZ_FEN } from '../services/coaching/coachingFixtures.js';

let app: TestApp;
afterEach(() => app.close());

type State = {
  focuses: { active: Array<{ title: string }>; recentlyResolved: Array<{ title: string }> };
  entries: Array<{ body: string; kind: string }>;
  nextCursor: string | null;
  openAssignments: Array<{ body: string }>;
  positions: { count: number; dueForQuiz: number; limit: number };
  lastSessionAt: string | null;
};

describe('get_coaching_state', () => {
  test('an empty state', async () => {
    app = makeTestApp();
    const { token } = app.addUser();
    const res = await app.call(getCoachingState, {}, token);
    expect(res.body).toEqual({
      focuses: { active: [], recentlyResolved: [] },
      entries: [],
      nextCursor: null,
      openAssignments: [],
      positions: { count: 0, dueForQuiz: 0, limit: 500 },
      lastSessionAt: null,
    });
  });

  test('focuses, the log newest first with a cursor, open assignments, positions and lastSessionAt', async () => {
    app = makeTestApp();
    const { token } = app.addUser();
    const other = app.addUser();
    const call = async (tool: Parameters<TestApp['call']>[0], input: unknown, t = token) => {
      const res = await app.call(tool, input, t);
      expect(res.status).toBe(200);
      app.clock.advance(1000);
      return res.body as { id: string };
    };
    const a = await call(setTrainingFocus, { title: 'Endgames' });
    await call(setTrainingFocus, { title: 'Calculation' });
    await call(setTrainingFocus, { focusId: a.id, resolve: true });
    await call(setTrainingFocus, { title: 'Openings' });
    // 60 entries: 2 sessions, 3 assignments (one then closed), 55 notes; plus the closing entry = 61.
    await call(addCoachingEntry, { kind: 'session', body: 'first session' });
    const sessionAt = app.clock.now().toISOString();
    await call(addCoachingEntry, { kind: 'session', body: 'second session' });
    const asg = await call(addCoachingEntry, { kind: 'assignment', body: 'asg 1' });
    await call(addCoachingEntry, { kind: 'assignment', body: 'asg 2' });
    await call(addCoachingEntry, { kind: 'assignment', body: 'asg 3' });
    for (let i = 1; i <= 55; i += 1) await call(addCoachingEntry, { kind: 'note', body: `note ${i}` });
    await call(addCoachingEntry, { kind: 'result', body: 'asg 1 done', assignmentId: asg.id, status: 'completed' });
    // Positions: 3 saved, one quizzed right, one quizzed wrong, one never → 2 due.
    const p = [];
    for (const fen of [OPERA_FENS[4], OPERA_FENS[8], RUY_LOPEZ_FEN]) p.push(await call(savePosition, { fen, label: 'x' }));
    await call(addCoachingEntry, { kind: 'result', body: 'q1', positionId: p[0].id, correct: true });
    await call(addCoachingEntry, { kind: 'result', body: 'q2', positionId: p[1].id, correct: false });
    // Another user's data never shows.
    await call(addCoachingEntry, { kind: 'session', body: 'not mine' }, other.token);
    await call(setTrainingFocus, { title: 'Not mine' }, other.token);

    const first = (await app.call(getCoachingState, {}, token)).body as State;
    expect(first.focuses.active.map((f) => f.title)).toEqual(['Calculation', 'Openings']);
    expect(first.focuses.recentlyResolved.map((f) => f.title)).toEqual(['Endgames']);
    // 63 entries in all (61 + 2 quiz results): the newest 50 first.
    expect(first.entries).toHaveLength(50);
    expect(first.entries[0].body).toBe('q2');
    expect(first.entries.slice(0, 4).map((e) => e.body)).toEqual(['q2', 'q1', 'asg 1 done', 'note 55']);
    expect(first.nextCursor).not.toBeNull();
    const second = (await app.call(getCoachingState, { cursor: first.nextCursor }, token)).body as State;
    // The remaining 13, newest first: notes 8..1, asg 3, asg 2, asg 1, second session, first session.
    expect(second.entries.map((e) => e.body)).toEqual([
      ...Array.from({ length: 8 }, (_, i) => `note ${8 - i}`),
      'asg 3',
      'asg 2',
      'asg 1',
      'second session',
      'first session',
    ]);
    expect(second.nextCursor).toBeNull();
    expect(first.openAssignments.map((e) => e.body)).toEqual(['asg 2', 'asg 3']);
    expect(first.positions).toEqual({ count: 3, dueForQuiz: 2, limit: 500 });
    // The second session was written one tick after the first.
    expect(first.lastSessionAt).toBe(sessionAt);
    // Removing the wrongly-quizzed position drops the due count.
    await app.call(removeSavedPosition, { id: p[1].id }, token);
    expect(((await app.call(getCoachingState, {}, token)).body as State).positions).toEqual({ count: 2, dueForQuiz: 1, limit: 500 });
  });

  test('a cursor that is not one is a 400', async () => {
    app = makeTestApp();
    const { token } = app.addUser();
    expect((await app.call(getCoachingState, { cursor: 'abc' }, token)).status).toBe(400);
  });
});

describe('rate limits', () => {
  test('the four coaching writes share one 60-per-hour bucket', async () => {
    app = makeTestApp({ env: { CFP_RATE_LIMITS: 'personal:10000/60' } });
    const { token } = app.addUser();
    const f = (await app.call(setTrainingFocus, { title: 'A' }, token)).body as { id: string };
    const pos = (await app.call(savePosition, { fen: RUY_LOPEZ_FEN, label: 'x' }, token)).body as { id: string };
    await app.call(removeSavedPosition, { id: pos.id }, token);
    // 3 spent; 57 more entries reach 60.
    for (let i = 0; i < 57; i += 1) expect((await app.call(addCoachingEntry, { kind: 'note', body: `n${i}`, focusId: f.id }, token)).status).toBe(200);
    const over = await app.call(savePosition, { fen: RUY_LOPEZ_FEN, label: 'y' }, token);
    expect(over.status).toBe(429);
    expect((await app.call(setTrainingFocus, { title: 'B' }, token)).status).toBe(429);
    // Reads are not in the bucket.
    expect((await app.call(getCoachingState, {}, token)).status).toBe(200);
    // One hour refills 60 tokens.
    app.clock.advance(3_600_000);
    expect((await app.call(savePosition, { fen: RUY_LOPEZ_FEN, label: 'y' }, token)).status).toBe(200);
  });

  test('study uploads have their own 20-per-hour bucket', async () => {
    app = makeTestApp({ env: { CFP_RATE_LIMITS: 'personal:10000/60' } });
    const { token } = app.addUser();
    // Each upload stores something (a note on another ply of the Opera game, one note a ply): an exact
    // duplicate would spend nothing (issue 30).
    const withNote = (i: number) => {
      const [tags, movetext] = OPERA_PGN.split('\n\n');
      let seen = 0;
      const noted = movetext.replace(/(?<=\s|^)[A-Za-z][^\s{}]*/g, (san) => (++seen === i + 1 ? `${san} {upload ${i}}` : san));
      return `${tags}\n\n${noted}`;
    };
    for (let i = 0; i < 20; i += 1) expect((await app.call(uploadStudyGame, { pgn: withNote(i) }, token)).status).toBe(200);
    expect((await app.call(uploadStudyGame, { pgn: withNote(20) }, token)).status).toBe(429);
    // The coaching bucket is separate.
    expect((await app.call(addCoachingEntry, { kind: 'note', body: 'x' }, token)).status).toBe(200);
  });
});
