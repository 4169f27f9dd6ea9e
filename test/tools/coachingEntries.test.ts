import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ASSIGNMENT_NOT_FOUND } from '../../src/services/coaching/entries.js';
import { POSITION_NOT_FOUND } from '../../src/services/coaching/positions.js';
import { addCoachingEntry } from '../../tools/coaching/add_coaching_entry.js';
import { getCoachingState } from '../../tools/coaching/get_coaching_state.js';
import { listSavedPositions } from '../../tools/coaching/list_saved_positions.js';
import { savePosition } from '../../tools/coaching/save_position.js';
import { setTrainingFocus } from '../../tools/coaching/set_training_focus.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { countRows, RUY_LOPEZ_FEN } from '../services/coaching/coachingFixtures.js';

let app: TestApp;
beforeEach(() => {
  app = makeTestApp();
});
afterEach(() => app.close());

type EntryBody = { id: string; kind: string; body: string; status: string | null; assignmentId: string | null; error?: string };
const add = async (input: unknown, token: string) => {
  const res = await app.call(addCoachingEntry, input, token);
  return { status: res.status, body: res.body as EntryBody };
};
const entries = () => countRows(app.deps.store, 'coaching_entries');
const openAssignments = async (token: string) =>
  ((await app.call(getCoachingState, {}, token)).body as { openAssignments: EntryBody[] }).openAssignments.map((a) => a.id);

describe('add_coaching_entry', () => {
  test.each(['reflection', 'note', 'result', 'session'])('appends a %s with no status', async (kind) => {
    const { token } = app.addUser();
    const res = await add({ kind, body: 'text' }, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind, body: 'text', status: null, assignmentId: null });
  });

  test.each([
    ['1 character', 1, 200],
    ['2000 characters', 2000, 200],
    ['2001 characters', 2001, 400],
    ['an empty body', 0, 400],
  ])('body of %s → %i', async (_, length, status) => {
    const { token } = app.addUser();
    expect((await add({ kind: 'note', body: 'b'.repeat(length) }, token)).status).toBe(status);
    expect(entries()).toBe(status === 200 ? 1 : 0);
  });

  test('an assignment starts open, unless a status is passed', async () => {
    const { token } = app.addUser();
    const open = await add({ kind: 'assignment', body: 'Play 10 rook endgames' }, token);
    expect(open.body.status).toBe('open');
    const done = await add({ kind: 'assignment', body: 'Already did it', status: 'completed' }, token);
    expect(done.body.status).toBe('completed');
    expect(await openAssignments(token)).toEqual([open.body.id]);
  });

  test.each(['completed', 'skipped'] as const)('open → %s: an entry naming the assignment closes it, once', async (status) => {
    const { token } = app.addUser();
    const assignment = (await add({ kind: 'assignment', body: 'Solve 20 puzzles' }, token)).body;
    const closing = await add({ kind: 'result', body: 'Done: 17/20', assignmentId: assignment.id, status }, token);
    expect(closing.status).toBe(200);
    expect(closing.body).toMatchObject({ status, assignmentId: assignment.id });
    expect(await openAssignments(token)).toEqual([]);
    // The assignment entry itself is unchanged in the store (append-only); its status is derived.
    expect(app.deps.store.sqlite.prepare('SELECT status FROM coaching_entries WHERE id = ?').get(assignment.id)).toEqual({ status: 'open' });
    const log = ((await app.call(getCoachingState, {}, token)).body as { entries: EntryBody[] }).entries;
    expect(log.find((e) => e.id === assignment.id)?.status).toBe(status);
    // Closing it again is a conflict and writes nothing.
    const again = await add({ kind: 'note', body: 'again', assignmentId: assignment.id, status: 'completed' }, token);
    expect(again.status).toBe(409);
    expect(entries()).toBe(2);
  });

  test('a foreign or unknown assignment, or an id that is not an assignment: the same 404, nothing written', async () => {
    const a = app.addUser();
    const b = app.addUser();
    const theirs = (await add({ kind: 'assignment', body: 'x' }, a.token)).body;
    const note = (await add({ kind: 'note', body: 'a note' }, b.token)).body;
    const before = entries();
    const foreign = await app.call(addCoachingEntry, { kind: 'note', body: 'x', assignmentId: theirs.id, status: 'completed' }, b.token);
    const unknown = await app.call(addCoachingEntry, { kind: 'note', body: 'x', assignmentId: 'nope', status: 'completed' }, b.token);
    const notAssignment = await app.call(addCoachingEntry, { kind: 'note', body: 'x', assignmentId: note.id, status: 'completed' }, b.token);
    expect(foreign).toEqual(unknown);
    expect(notAssignment).toEqual(unknown);
    expect(foreign).toMatchObject({ status: 404, body: { error: ASSIGNMENT_NOT_FOUND } });
    expect(entries()).toBe(before);
    expect(await openAssignments(a.token)).toEqual([theirs.id]);
  });

  test.each([
    ['assignmentId without status', { kind: 'note', body: 'x', assignmentId: 'a' }],
    ['assignmentId with status open', { kind: 'note', body: 'x', assignmentId: 'a', status: 'open' }],
    ['an assignment naming an assignment', { kind: 'assignment', body: 'x', assignmentId: 'a', status: 'completed' }],
    ['status on a note', { kind: 'note', body: 'x', status: 'completed' }],
    ['positionId on a note', { kind: 'note', body: 'x', positionId: 'p', correct: true }],
    ['positionId without correct', { kind: 'result', body: 'x', positionId: 'p' }],
    ['correct without positionId', { kind: 'result', body: 'x', correct: true }],
    ['an unknown kind', { kind: 'chat', body: 'x' }],
  ])('400 for %s', async (_, input) => {
    const { token } = app.addUser();
    expect((await add(input, token)).status).toBe(400);
    expect(entries()).toBe(0);
  });

  test('saved → saved: a result naming a position stamps its last-quizzed time and appends to its history', async () => {
    const { token } = app.addUser();
    const p = (await app.call(savePosition, { fen: RUY_LOPEZ_FEN, label: 'Ruy' }, token)).body as { id: string };
    app.clock.set('2026-11-21T09:00:00Z');
    await add({ kind: 'result', body: 'missed it', positionId: p.id, correct: false }, token);
    app.clock.set('2026-11-22T09:00:00Z');
    const second = await add({ kind: 'result', body: 'found it', positionId: p.id, correct: true }, token);
    const listed = ((await app.call(listSavedPositions, {}, token)).body as { positions: Array<Record<string, unknown>> }).positions[0];
    expect(listed).toMatchObject({
      lastQuizzedAt: '2026-11-22T09:00:00.000Z',
      dueForQuiz: false,
      quizHistory: [
        { correct: false, at: '2026-11-21T09:00:00.000Z' },
        { correct: true, at: '2026-11-22T09:00:00.000Z', entryId: second.body.id },
      ],
    });
  });

  test('a result naming a foreign position or focus answers as an unknown one; nothing is written', async () => {
    const a = app.addUser();
    const b = app.addUser();
    const p = (await app.call(savePosition, { fen: RUY_LOPEZ_FEN, label: 'Ruy' }, a.token)).body as { id: string };
    const f = ((await app.call(setTrainingFocus, { title: 'A' }, a.token)).body as { id: string }).id;
    const foreign = await app.call(addCoachingEntry, { kind: 'result', body: 'x', positionId: p.id, correct: true }, b.token);
    const unknown = await app.call(addCoachingEntry, { kind: 'result', body: 'x', positionId: 'nope', correct: true }, b.token);
    expect(foreign).toEqual(unknown);
    expect(foreign).toMatchObject({ status: 404, body: { error: POSITION_NOT_FOUND } });
    const foreignFocus = await app.call(addCoachingEntry, { kind: 'note', body: 'x', focusId: f }, b.token);
    expect(foreignFocus).toEqual(await app.call(addCoachingEntry, { kind: 'note', body: 'x', focusId: 'nope' }, b.token));
    expect(foreignFocus.status).toBe(404);
    expect([entries(), countRows(app.deps.store, 'position_quizzes')]).toEqual([0, 0]);
    expect(app.deps.store.sqlite.prepare('SELECT last_quizzed_at FROM saved_positions').get()).toEqual({ last_quizzed_at: null });
  });
});
