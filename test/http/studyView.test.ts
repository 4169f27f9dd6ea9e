import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Listening } from '../../src/http/listen.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { rest, startServer } from '../helpers/server.js';

// GET /api/v1/settings/study/{id} (issue 39): a study game as the dashboard opens it, for its owner only.

const PGN = `[Event "Casual"]
[White "Anderssen"]
[Black "Dufresne"]
[Result "*"]

{A quiet start} 1. e4 e5 2. Nf3 {the knight first} Nc6 3. Bc4 {aiming at f7} *
`;

describe('a study game for the dashboard', () => {
  let app: TestApp;
  let server: Listening;
  let alice: { token: string };
  let bob: { token: string };
  let id: string;

  beforeAll(async () => {
    app = makeTestApp();
    alice = app.addUser('Alice');
    bob = app.addUser('Bob');
    server = await startServer(app);
    const up = await rest(server.url, '/api/v1/me/study', { method: 'POST', token: alice.token, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pgn: PGN }) });
    expect(up.status).toBeLessThan(300);
    id = (up.body as { id: string }).id;
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });

  test('its owner reads the PGN, the notes by ply (0 before the first move) and no analysis before one is requested', async () => {
    const res = await rest(server.url, `/api/v1/settings/study/${id}`, { token: alice.token });
    expect(res.status).toBe(200);
    const body = res.body as { game: { id: string; white: string; plyCount: number }; pgn: string; notes: Array<{ ply: number; text: string }>; plies: unknown[] };
    expect(body.game).toMatchObject({ id, white: 'Anderssen', plyCount: 5 });
    expect(body.pgn).toBe(PGN);
    // 2. Nf3 is ply 3 and 3. Bc4 ply 5, counted from the PGN by hand.
    expect(body.notes).toEqual([
      { ply: 0, text: 'A quiet start' },
      { ply: 3, text: 'the knight first' },
      { ply: 5, text: 'aiming at f7' },
    ]);
    expect(body.plies).toEqual([]);
  });

  test('another owner and an unknown id get the same 404; no session, a 401', async () => {
    const other = await rest(server.url, `/api/v1/settings/study/${id}`, { token: bob.token });
    const unknown = await rest(server.url, '/api/v1/settings/study/no-such-id', { token: alice.token });
    expect(other.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(other.body).toEqual(unknown.body);
    expect((await rest(server.url, `/api/v1/settings/study/${id}`)).status).toBe(401);
  });
});
