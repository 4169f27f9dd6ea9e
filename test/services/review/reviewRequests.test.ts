import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import { StoredAnalysis } from '../../../schemas/engine.js';
import { DEEPER_MARGINS } from '../../../src/chess/deeperLook.js';
import { parsePgn } from '../../../src/chess/pgn.js';
import { Messages } from '../../../src/errors.js';
import { insertGames, movesColumns, type NewGame } from '../../../src/services/games/gameWriter.js';
import { analyses, games, pgns, reviewJobs } from '../../../src/store/schema/index.js';
import { getGame } from '../../../tools/games/get_game.js';
import { requestGameReview } from '../../../tools/games/request_game_review.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

// Engine-backed: a tiny real budget keeps these quick (a few thousand nodes per position).
// The lite build: these tests are about the queue, not the network, and it starts in a fraction of the full build's time.
const ENGINE_ENV = { CFP_ENGINE_NODES: '3000', CFP_ENGINE_DEEP_NODES: '9000', CFP_ENGINE_WORKERS: '2', CFP_ENGINE_BUILD: 'lite' };

let app: TestApp;
afterEach(async () => app?.close());

// Scholar's mate: 4.Qxf7# after 3...Nf6??: 7 plies, the last position checkmate.
const SCHOLAR = '[White "Me"]\n[Black "Them"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0';
const SHORT = ['1. d4 d5 2. c4 e6 *', '1. e4 c5 2. Nf3 d6 *', '1. c4 e5 2. Nc3 Nf6 *'];

function addGame(userId: string, pgn: string | null, over: Partial<NewGame> = {}): string {
  const sourceId = `g${Math.random()}`;
  const parsed = pgn ? parsePgn(pgn) : null;
  insertGames(app.deps.store, app.deps.clock, [
    {
      game: {
        userId,
        provider: 'siteB',
        sourceId,
        playedAt: '2026-10-01T18:00:00Z',
        colour: 'white',
        result: 'win',
        opponent: 'Them',
        timeClass: 'blitz',
        rated: true,
        movesCount: 0,
        sourceUrl: 'https://example.test/game',
        ...(parsed ? movesColumns(parsed, 'x') : {}),
        pgnHash: null,
        ...over,
      },
    },
  ]);
  return app.deps.store.db.select().from(games).where(eq(games.sourceId, sourceId)).get()!.id;
}

describe('request_game_review: the review state table', () => {
  test('queued (202) → same request collects it (200) → reviewed is free (alreadyReviewed)', async () => {
    app = makeTestApp({ env: { ...ENGINE_ENV, CFP_RATE_LIMITS: 'review:5/3600' } });
    const { user, token } = app.addUser();
    const id = addGame(user.id, SCHOLAR);

    const first = await app.call(requestGameReview, { id }, token);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ status: 'queued', id });
    const again = await app.call(requestGameReview, { id }, token);
    expect(again.status).toBe(202);
    expect((again.body as { note: string }).note).toMatch(/nothing more was spent/);
    expect(app.deps.store.db.select().from(reviewJobs).all()).toHaveLength(1);

    app.deps.runtime.reviews.startWorkers();
    const done = await app.call(requestGameReview, { id, wait: 45 }, token);
    expect(done.status).toBe(200);
    const body = done.body as { status: string; alreadyReviewed: boolean; review: { accuracyWhite: number; accuracyBlack: number; accuracyForUser: number } };
    expect(body).toMatchObject({ status: 'complete', alreadyReviewed: false });
    // Black's 3...Nf6?? allows mate in one (win% to ~0): Black's accuracy must fall well below White's.
    expect(body.review.accuracyBlack).toBeLessThan(body.review.accuracyWhite);
    expect(body.review.accuracyForUser).toBe(body.review.accuracyWhite);

    const row = app.deps.store.db.select().from(analyses).get()!;
    const stored = StoredAnalysis.parse(JSON.parse(row.payload));
    expect(stored.positions).toHaveLength(8);
    expect(stored.positions[7]).toMatchObject({ terminal: 'checkmate', lines: [] });
    // Before 4.Qxf7# White has mate in one: the engine finds it at any budget.
    expect(stored.positions[6].lines[0]).toMatchObject({ score: { cp: null, mate: 1 }, pv: ['h5f7'] });
    expect(stored.positions.slice(0, 7).every((p) => p.lines.length === 2 && p.nodes >= 3000)).toBe(true);
    // The deeper look's budget and margins are recorded with the review (issue 25 item 2).
    expect(stored.budget).toEqual({ nodesPerPosition: 3000, multiPv: 2, search: 'position', deeper: { nodesPerPosition: 9000, margins: DEEPER_MARGINS } });
    expect(stored.engine.name).toBe('Stockfish');
    expect(app.deps.store.db.select().from(games).where(eq(games.id, id)).get()!.reviewAccuracy).toBeCloseTo(row.accuracyWhite, 6);

    const repeat = await app.call(requestGameReview, { id }, token);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ status: 'complete', alreadyReviewed: true, review: body.review });
    expect(app.deps.store.db.select().from(reviewJobs).all()).toHaveLength(1);
  }, 60_000);

  test('the allowance at its edge; a reviewed game stays free once it is spent', async () => {
    app = makeTestApp({ env: { ...ENGINE_ENV, CFP_RATE_LIMITS: 'review:2/3600' } });
    const { user, token } = app.addUser();
    const [a, b, c] = SHORT.map((pgn) => addGame(user.id, pgn));
    expect((await app.call(requestGameReview, { id: a }, token)).status).toBe(202);
    expect((await app.call(requestGameReview, { id: b }, token)).status).toBe(202);
    const third = await app.call(requestGameReview, { id: c }, token);
    expect(third.status).toBe(429);
    expect(app.deps.store.db.select().from(reviewJobs).all()).toHaveLength(2);
    // A queued game asked again costs nothing, so it still answers.
    expect((await app.call(requestGameReview, { id: a }, token)).status).toBe(202);

    app.deps.runtime.reviews.startWorkers();
    const done = await app.call(requestGameReview, { id: a, wait: 45 }, token);
    expect(done.status).toBe(200);
    const free = await app.call(requestGameReview, { id: a }, token);
    expect(free).toMatchObject({ status: 200, body: { alreadyReviewed: true } });
    // Time refills the bucket: 2 per 3600 s is one token per 1800 s.
    app.clock.advance(1800_000);
    expect((await app.call(requestGameReview, { id: c }, token)).status).toBe(202);
  }, 60_000);

  test('400 for a game without moves or with only its opening; 404 for foreign and unknown ids; wait outside 0-45', async () => {
    app = makeTestApp();
    const owner = app.addUser();
    const other = app.addUser();
    const none = addGame(owner.user.id, null, { provider: 'fed' });
    const opening = addGame(owner.user.id, null, { sanMoves: 'e4 c5', movesSource: 'opening-only' });
    for (const id of [none, opening]) {
      const res = await app.call(requestGameReview, { id }, owner.token);
      expect(res.status).toBe(400);
      expect((res.body as { error: string }).error).toMatch(/attach_pgn first/);
    }
    const foreign = await app.call(requestGameReview, { id: none }, other.token);
    const unknown = await app.call(requestGameReview, { id: 'nope' }, other.token);
    expect(foreign).toEqual(unknown);
    expect(foreign).toMatchObject({ status: 404, body: { error: Messages.gameNotFound } });
    expect((await app.call(requestGameReview, { id: none, wait: 46 }, owner.token)).status).toBe(400);
    expect((await app.call(requestGameReview, { id: none, wait: -1 }, owner.token)).status).toBe(400);
    expect(app.deps.store.db.select().from(reviewJobs).all()).toHaveLength(0);
  });

  test('a game stored before null moves were refused: 400 naming the rule, nothing queued, no allowance spent', async () => {
    app = makeTestApp({ env: { ...ENGINE_ENV, CFP_RATE_LIMITS: 'review:1/3600' } });
    const { user, token } = app.addUser();
    // As an older version stored it: the PGN as uploaded, with a null move ("--") at Black's second move.
    const text = '[White "Me"]\n[Black "Them"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 -- 3. Bc4 *';
    app.deps.store.db.insert(pgns).values({ hash: 'old-null-move', text, createdAt: '2025-01-01T00:00:00Z' }).run();
    const old = addGame(user.id, null, { pgnHash: 'old-null-move', movesSource: 'pgn', sanMoves: 'e4 e5 Nf3 a8a8 Bc4', movesKey: 'old-key' });
    const res = await app.call(requestGameReview, { id: old }, token);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toMatch(/2…-- is a null move.*attach_pgn/);
    expect(app.deps.store.db.select().from(reviewJobs).all()).toHaveLength(0);
    // The one review of the hour is still there to spend.
    expect((await app.call(requestGameReview, { id: addGame(user.id, SHORT[0]) }, token)).status).toBe(202);
  });

  test('an engine that keeps crashing: the job fails with the reason (502 to a waiting caller); asking again queues anew', async () => {
    const crashing = fileURLToPath(new URL('../../fixtures/uci/crashing-engine.mjs', import.meta.url));
    app = makeTestApp({ env: { ...ENGINE_ENV, CFP_STOCKFISH: crashing } });
    const { user, token } = app.addUser();
    const id = addGame(user.id, SHORT[0]);
    app.deps.runtime.reviews.startWorkers();
    const res = await app.call(requestGameReview, { id, wait: 30 }, token);
    expect(res.status).toBe(502);
    expect((res.body as { error: string }).error).toMatch(/failed twice.*call again to queue a new review/);
    const [job] = app.deps.store.db.select().from(reviewJobs).all();
    expect(job).toMatchObject({ status: 'failed' });
    // Both halves of the game crash; whichever engine process fails first names its position.
    expect(job.error).toMatch(/position \d+ failed twice/);
    expect(app.deps.store.db.select().from(analyses).all()).toHaveLength(0);
    await app.deps.runtime.reviews.stop();
    expect((await app.call(requestGameReview, { id }, token)).status).toBe(202);
    expect(app.deps.store.db.select().from(reviewJobs).all()).toHaveLength(2);
  }, 60_000);
});

describe('review state is per owner', () => {
  test("B holding the same moves as A sees nothing of A's review: B's first request costs B's allowance and carries B's time", async () => {
    app = makeTestApp({ env: { ...ENGINE_ENV, CFP_RATE_LIMITS: 'review:1/3600' } });
    const a = app.addUser();
    const b = app.addUser();
    const aGame = addGame(a.user.id, SCHOLAR);
    const bGame = addGame(b.user.id, SCHOLAR);
    const bOther = addGame(b.user.id, SHORT[0]);
    app.deps.runtime.reviews.startWorkers();
    const aDone = await app.call(requestGameReview, { id: aGame, wait: 45 }, a.token);
    expect(aDone.body).toMatchObject({ status: 'complete', alreadyReviewed: false });
    const aRow = app.deps.store.db.select().from(analyses).get()!;

    // Before asking, B's game shows no review at all.
    expect((await app.call(getGame, { id: bGame }, b.token)).body).toMatchObject({ review: null });

    app.clock.advance(3_600_000);
    const bDone = await app.call(requestGameReview, { id: bGame, wait: 45 }, b.token);
    expect(bDone.body).toMatchObject({ status: 'complete', alreadyReviewed: false });
    // B's one unit is gone: another game of B's is refused.
    expect((await app.call(requestGameReview, { id: bOther }, b.token)).status).toBe(429);
    // B's review carries B's time; A's keeps A's. Each owner's engine run is their own row; A's is unchanged.
    const bReview = (await app.call(getGame, { id: bGame }, b.token)).body as { review: { analysedAt: string } };
    const aReview = (await app.call(getGame, { id: aGame }, a.token)).body as { review: { analysedAt: string } };
    expect(bReview.review.analysedAt).toBe('2026-11-20T13:00:00.000Z');
    expect(aReview.review.analysedAt).toBe('2026-11-20T12:00:00.000Z');
    const rows = app.deps.store.db.select().from(analyses).all().sort((x, y) => x.reviewedAt.localeCompare(y.reviewedAt));
    expect(rows.map((r) => [r.userId, r.reviewedAt])).toEqual([
      [a.user.id, '2026-11-20T12:00:00.000Z'],
      [b.user.id, '2026-11-20T13:00:00.000Z'],
    ]);
    expect(rows[0]).toEqual(aRow);
  }, 60_000);
});
