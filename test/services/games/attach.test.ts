import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import { movesKey, replaySan, sha256, START_FEN } from '../../../src/chess/pgn.js';
import { ApiError, Messages } from '../../../src/errors.js';
import { attachPgn } from '../../../src/services/games/attach.js';
import { insertGames, type NewGame } from '../../../src/services/games/gameWriter.js';
import { games, pgns } from '../../../src/store/schema/index.js';
import { attachPgn as attachTool } from '../../../tools/games/attach_pgn.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let app: TestApp;
afterEach(async () => app?.close());

function addGame(userId: string, over: Partial<NewGame> = {}): string {
  const sourceId = `g${Math.random()}`;
  insertGames(app.deps.store, app.deps.clock, [
    {
      game: {
        userId,
        provider: 'fed',
        sourceId,
        playedAt: '2026-10-01T18:00:00Z',
        colour: 'white',
        result: 'win',
        opponent: 'Smith, John',
        timeClass: 'standard',
        rated: true,
        movesCount: 0,
        sourceUrl: 'https://example.test/game',
        ...over,
      },
    },
  ]);
  return app.deps.store.db.select().from(games).where(eq(games.sourceId, sourceId)).get()!.id;
}

const OPERA = `[Event "Paris"]
[White "Morphy, Paul"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5
10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0`;

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('attach_pgn', () => {
  test('attaches: only the pointer and the move-derived columns change', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser('Paul Morphy');
    const id = addGame(user.id, { opponent: 'Duke Karl / Count Isouard' });
    const before = app.deps.store.db.select().from(games).where(eq(games.id, id)).get()!;
    const res = await app.call(attachTool, { id, pgn: OPERA }, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ attached: true, id, refId: sha256(OPERA), alreadyAttached: false });
    const after = app.deps.store.db.select().from(games).where(eq(games.id, id)).get()!;
    // 33 plies: 17 full moves; the Opera game's first and last moves.
    expect(after.sanMoves!.split(' ')).toHaveLength(33);
    expect(after.sanMoves!.startsWith('e4 e5 Nf3 d6')).toBe(true);
    expect(after.sanMoves!.endsWith('Rd8#')).toBe(true);
    expect(after).toMatchObject({ movesSource: 'pgn', movesCount: 17, pgnHash: sha256(OPERA), version: before.version + 1 });
    // The analysis key of exactly these moves from the initial position.
    expect(after.movesKey).toBe(movesKey(START_FEN, replaySan(after.sanMoves!.split(' '))!.map((p) => p.uci)));
    // An ECF row has no opening; the PGN (no ECO tag) names it from its moves with the opening table:
    // 1.e4 e5 2.Nf3 d6 3.d4 is C41 Philidor Defense (data/openings/c.tsv), the deepest line the Opera game follows.
    expect([before.eco, before.opening]).toEqual([null, null]);
    expect([after.eco, after.opening]).toEqual(['C41', 'Philidor Defense']);
    const { sanMoves, movesSource, movesCount, pgnHash, movesKey: key, version, clocks, eco, opening, ...rest } = after;
    const { sanMoves: _a, movesSource: _b, movesCount: _c, pgnHash: _d, movesKey: _e, version: _f, clocks: _g, eco: _h, opening: _i, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    expect(app.deps.store.db.select().from(pgns).all()).toHaveLength(1);
  });

  test('the opening a row has from its source is kept; an ECO and Opening tag name it when the row has none (issue 45 item 13)', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser('Paul Morphy');
    const named = addGame(user.id, { opponent: 'Duke Karl / Count Isouard', eco: 'C40', opening: "King's Knight Opening" });
    expect((await app.call(attachTool, { id: named, pgn: OPERA }, token)).status).toBe(200);
    expect(app.deps.store.db.select().from(games).where(eq(games.id, named)).get()).toMatchObject({ eco: 'C40', opening: "King's Knight Opening" });
    const tagged = addGame(user.id, { opponent: 'Duke Karl / Count Isouard' });
    const withTags = OPERA.replace('[Result "1-0"]', '[Result "1-0"]\n[ECO "C41"]\n[Opening "Philidor: Opera game"]');
    expect((await app.call(attachTool, { id: tagged, pgn: withTags }, token)).status).toBe(200);
    expect(app.deps.store.db.select().from(games).where(eq(games.id, tagged)).get()).toMatchObject({ eco: 'C41', opening: 'Philidor: Opera game' });
  });

  test('already attached: 200 alreadyAttached, the existing PGN kept, the new text not stored', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser();
    const id = addGame(user.id, { opponent: 'Duke Karl / Count Isouard' });
    await app.call(attachTool, { id, pgn: OPERA }, token);
    const again = await app.call(attachTool, { id, pgn: '1. e4 e5 2. Nf3 *' }, token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ attached: true, alreadyAttached: true, refId: sha256(OPERA) });
    expect(app.deps.store.db.select().from(pgns).all()).toHaveLength(1);
  });

  test.each([
    ['two games', `${OPERA}\n\n[Event "x"]\n\n1. d4 d5 *`, /2 games/],
    ['no moves', '[Event "x"]\n[Result "*"]\n\n*', /no moves/],
    ['unparseable', '1. e4 {never closed', /unparseable/],
    ['an illegal move', '1. e4 e5 2. Ke3 *', /Ke3.*not legal/],
    ['a null move', '1. e4 e5 2. -- Nc6 *', /^null move: 2\.-- is a null move/],
    ['a start position with the side not to move in check', '[FEN "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. Ra2 *', /^illegal position: .*not to move \(Black\) is in check/],
  ])('400 for %s, nothing stored', async (_label, pgn, message) => {
    app = makeTestApp();
    const { user, token } = app.addUser();
    const id = addGame(user.id);
    const res = await app.call(attachTool, { id, pgn }, token);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toMatch(message);
    expect(app.deps.store.db.select().from(pgns).all()).toHaveLength(0);
    expect(app.deps.store.db.select().from(games).where(eq(games.id, id)).get()!.pgnHash).toBeNull();
  });

  test('400 when the body has anything besides pgn', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser();
    const id = addGame(user.id);
    const res = await app.call(attachTool, { id, pgn: OPERA, colour: 'white' }, token);
    expect(res.status).toBe(400);
  });

  test('400 when the opponent sits on the owner\'s side', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser('Paul Morphy');
    // Stored: the owner had White against "Karl, Duke"; the PGN puts "Duke Karl" (same name, other order) as White.
    const id = addGame(user.id, { opponent: 'Karl, Duke', colour: 'white' });
    const pgn = '[White "Duke Karl"]\n[Black "Morphy, Paul"]\n[Result "*"]\n\n1. e4 e5 *';
    const res = await app.call(attachTool, { id, pgn }, token);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toMatch(/Karl, Duke.*as White.*you played white/);
  });

  test('400 when the owner is named on the other side', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser('Paul Morphy');
    const id = addGame(user.id, { opponent: 'Someone Else', colour: 'white', result: 'draw' });
    const pgn = '[White "Anderssen"]\n[Black "Paul Morphy"]\n[Result "*"]\n\n1. e4 e5 *';
    const res = await app.call(attachTool, { id, pgn }, token);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toMatch(/you as Black/);
  });

  test('400 when the PGN result contradicts the recorded result', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser();
    const id = addGame(user.id, { colour: 'black', result: 'win' });
    // 1-0 is a loss for Black; the game is recorded as a Black win.
    const res = await app.call(attachTool, { id, pgn: '[Result "1-0"]\n\n1. e4 e5 1-0' }, token);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toMatch(/1-0 means a loss for black/);
  });

  test('400 when the PGN is unfinished (*): a truncated copy never attaches to a finished game, nothing stored', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser();
    const id = addGame(user.id, { colour: 'black', result: 'draw' });
    // The Opera game cut after move 10, its result replaced by * (the text a truncated copy holds).
    const truncated = OPERA.replace('[Result "1-0"]', '[Result "*"]').replace(/ 11\. Bxb5\+[\s\S]*$/, ' *');
    const res = await app.call(attachTool, { id, pgn: truncated }, token);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toBe(
      "the PGN does not match this game: the PGN's result is * (unfinished, or its result left out), but this game is finished: a draw for black; send the whole game, ending with its result (1-0, 0-1 or 1/2-1/2)",
    );
    expect(app.deps.store.db.select().from(pgns).all()).toEqual([]);
    expect(app.deps.store.db.select().from(games).where(eq(games.id, id)).get()).toMatchObject({ pgnHash: null, movesCount: 0 });
    // No Result tag and no result token reads as * too.
    const untagged = await app.call(attachTool, { id, pgn: '1. e4 e5 2. Nf3 Nc6' }, token);
    expect(untagged.status).toBe(400);
    expect((untagged.body as { error: string }).error).toMatch(/result is \*/);
  });

  test('400 when the PGN does not start with the recorded opening line', async () => {
    app = makeTestApp();
    const { user, token } = app.addUser();
    const id = addGame(user.id, { provider: 'siteA', sanMoves: 'e4 c5 Nf3', movesSource: 'opening-only', movesCount: 2 });
    const res = await app.call(attachTool, { id, pgn: '1. e4 e5 2. Nf3 Nc6 *' }, token);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toMatch(/ply 2 is e5.*has c5/);
    const ok = await app.call(attachTool, { id, pgn: '1. e4 c5 2. Nf3 d6 1-0' }, token);
    expect(ok.status).toBe(200);
  });

  test('404 for a foreign id, identical to an unknown id', async () => {
    app = makeTestApp();
    const owner = app.addUser();
    const other = app.addUser();
    const id = addGame(owner.user.id);
    const foreign = await app.call(attachTool, { id, pgn: OPERA }, other.token);
    const unknown = await app.call(attachTool, { id: 'no-such-game', pgn: OPERA }, other.token);
    expect(foreign).toEqual(unknown);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: Messages.gameNotFound });
  });

  test('409 when the row changes between the read and the write; nothing stored', () => {
    app = makeTestApp();
    const { user, ctx } = app.addUser();
    const id = addGame(user.id, { opponent: 'Duke Karl / Count Isouard' });
    const err = errorOf(() =>
      attachPgn(ctx, id, OPERA, {
        // A concurrent writer (say a sync updating the row) lands in the gap.
        beforeWrite: () => app.deps.store.sqlite.prepare('UPDATE games SET version = version + 1 WHERE id = ?').run(id),
      }),
    );
    expect(err.status).toBe(409);
    expect(app.deps.store.db.select().from(games).where(eq(games.id, id)).get()!.pgnHash).toBeNull();
    expect(app.deps.store.db.select().from(pgns).all()).toHaveLength(0);
    // Fetching again and retrying succeeds.
    expect(attachPgn(ctx, id, OPERA).attached).toBe(true);
  });
});
