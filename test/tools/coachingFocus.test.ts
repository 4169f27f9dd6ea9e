import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { FOCUS_NOT_FOUND } from '../../src/services/coaching/focus.js';
import { setTrainingFocus } from '../../tools/coaching/set_training_focus.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { countRows } from '../services/coaching/coachingFixtures.js';

let app: TestApp;
beforeEach(() => {
  app = makeTestApp();
});
afterEach(() => app.close());

type FocusBody = { id: string; title: string; status: string; createdAt: string; resolvedAt: string | null };
const focus = async (input: unknown, token: string) => {
  const res = await app.call(setTrainingFocus, input, token);
  return { status: res.status, body: res.body as FocusBody & { error?: string } };
};

describe('set_training_focus', () => {
  test('none → active: {title} creates an active focus', async () => {
    const { token } = app.addUser();
    const res = await focus({ title: 'Convert winning endgames' }, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Convert winning endgames', status: 'active', createdAt: '2026-11-20T12:00:00.000Z', resolvedAt: null });
  });

  test('3 active is the limit: the 4th create is a 409 naming the active ones, and nothing is stored', async () => {
    const { token } = app.addUser();
    const titles = ['Endgames', 'Calculation', 'Time trouble'];
    for (const title of titles) expect((await focus({ title }, token)).status).toBe(200);
    const fourth = await focus({ title: 'Openings' }, token);
    expect(fourth.status).toBe(409);
    for (const title of titles) expect(fourth.body.error).toContain(`"${title}"`);
    expect(fourth.body.error).not.toContain('Openings');
    expect(countRows(app.deps.store, 'coaching_focuses')).toBe(3);
  });

  test('active → active: {focusId, title} retitles', async () => {
    const { token } = app.addUser();
    const created = await focus({ title: 'Endgmaes' }, token);
    const res = await focus({ focusId: created.body.id, title: 'Endgames' }, token);
    expect(res.body).toMatchObject({ id: created.body.id, title: 'Endgames', status: 'active', resolvedAt: null });
  });

  test('active → resolved: {focusId, resolve: true}; a resolved focus frees a slot and is never deleted', async () => {
    const { token } = app.addUser();
    const ids: string[] = [];
    for (const title of ['A', 'B', 'C']) ids.push((await focus({ title }, token)).body.id);
    app.clock.advance(3_600_000);
    const resolved = await focus({ focusId: ids[1], resolve: true }, token);
    expect(resolved.body).toMatchObject({ id: ids[1], title: 'B', status: 'resolved', resolvedAt: '2026-11-20T13:00:00.000Z' });
    expect((await focus({ title: 'D' }, token)).status).toBe(200);
    expect(countRows(app.deps.store, 'coaching_focuses')).toBe(4);
    // Resolving again changes nothing; retitling a resolved focus is refused.
    app.clock.advance(60_000);
    expect((await focus({ focusId: ids[1], resolve: true }, token)).body).toEqual(resolved.body);
    const retitle = await focus({ focusId: ids[1], title: 'B2' }, token);
    expect(retitle.status).toBe(409);
  });

  test('a foreign focus id answers exactly as an unknown one, and is left untouched', async () => {
    const a = app.addUser();
    const b = app.addUser();
    const theirs = (await focus({ title: 'Mine' }, a.token)).body;
    const foreign = await app.call(setTrainingFocus, { focusId: theirs.id, resolve: true }, b.token);
    const unknown = await app.call(setTrainingFocus, { focusId: 'nope', resolve: true }, b.token);
    expect(foreign).toEqual(unknown);
    expect(foreign).toMatchObject({ status: 404, body: { error: FOCUS_NOT_FOUND } });
    const row = app.deps.store.sqlite.prepare('SELECT title, status FROM coaching_focuses WHERE id = ?').get(theirs.id);
    expect(row).toEqual({ title: 'Mine', status: 'active' });
  });

  test.each([
    ['resolve without focusId', { resolve: true }],
    ['nothing to do', {}],
    ['focusId alone', { focusId: 'x' }],
    ['an empty title', { title: '   ' }],
    ['a 201-character title', { title: 'x'.repeat(201) }],
    ['an unknown field', { title: 'x', colour: 'white' }],
  ])('400 for %s', async (_, input) => {
    const { token } = app.addUser();
    expect((await focus(input, token)).status).toBe(400);
    expect(countRows(app.deps.store, 'coaching_focuses')).toBe(0);
  });

  test('a 200-character title is accepted', async () => {
    const { token } = app.addUser();
    expect((await focus({ title: 'x'.repeat(200) }, token)).status).toBe(200);
  });

  test('the 3-active limit is per user', async () => {
    const a = app.addUser();
    const b = app.addUser();
    for (const title of ['A', 'B', 'C']) await focus({ title }, a.token);
    expect((await focus({ title: 'Mine' }, b.token)).status).toBe(200);
  });
});
