import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parsePgn } from '../../../src/chess/pgn.js';
import { insertGames, movesColumns } from '../../../src/services/games/gameWriter.js';
import { MAX_ATTEMPTS, STALE_LEASE_MS } from '../../../src/services/review/queue.js';
import { reviewQueueStatus } from '../../../src/services/review/queueStatus.js';
import { games, reviewJobs } from '../../../src/store/schema/index.js';
import { getGame } from '../../../tools/games/get_game.js';
import { requestGameReview } from '../../../tools/games/request_game_review.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeAnalysis } from '../../helpers/analysis.js';
import { analysisRow, saveReview } from '../../../src/services/review/records.js';

/** Issue 30 item 4: what an owner sees of their own reviews: places among their own jobs, and a failed one with the next step. */
let app: TestApp;
beforeEach(() => {
  app = makeTestApp();
});
afterEach(() => app.close());

const PGNS = ['1. e4 e5 2. Nf3 Nc6 *', '1. d4 d5 2. c4 e6 *', '1. c4 e5 2. Nc3 Nf6 *'];
function seed(userId: string, prefix: string): string[] {
  insertGames(
    app.deps.store,
    app.clock,
    PGNS.map((pgn, i) => ({
      game: {
        userId, provider: 'siteB', sourceId: `${prefix}${i}`, playedAt: `2026-10-0${i + 1}T12:00:00Z`, colour: 'white', result: 'draw',
        opponent: 'Them', timeClass: 'blitz', rated: true, sourceUrl: 'https://example.test', ...movesColumns(parsePgn(pgn), `${prefix}h${i}`), pgnHash: null,
      },
    })),
  );
  return app.deps.store.db.select().from(games).all().filter((g) => g.userId === userId).sort((a, b) => a.sourceId.localeCompare(b.sourceId)).map((g) => g.id);
}

describe("an owner's view of the queue", () => {
  test("the place in the queue counts only the owner's own jobs", async () => {
    const a = app.addUser('A', 'a@example.test');
    const b = app.addUser('B', 'b@example.test');
    const aGames = seed(a.user.id, 'a');
    const bGames = seed(b.user.id, 'b');
    // A queues three reviews first (no worker runs: they stay queued), then B one.
    for (const id of aGames) expect((await app.call(requestGameReview, { id }, a.token)).status).toBe(202);
    const bAnswer = await app.call(requestGameReview, { id: bGames[0] }, b.token);
    expect(bAnswer.status).toBe(202);
    // Three of A's jobs are ahead in the shared queue; B hears only of its own: next.
    expect((bAnswer.body as { note: string }).note).toMatch(/^queued \(next\)/);
    expect(reviewQueueStatus(app.deps, b.user.id).active.map((j) => j.position)).toEqual([1]);
    expect(reviewQueueStatus(app.deps, a.user.id).active.map((j) => j.position)).toEqual([1, 2, 3]);
  });

  test('a review abandoned after its process stopped three times says so in get_game and the queue status, with the next step', async () => {
    const a = app.addUser('A', 'a@example.test');
    const [gameId] = seed(a.user.id, 'a');
    expect((await app.call(getGame, { id: gameId }, a.token)).body).toMatchObject({ review: null, reviewRequest: null });
    expect((await app.call(requestGameReview, { id: gameId }, a.token)).status).toBe(202);
    expect((await app.call(getGame, { id: gameId }, a.token)).body).toMatchObject({ reviewRequest: { status: 'queued' } });
    // Its process died three times mid-review (the lease went stale each time): the next claim gives up on it.
    app.deps.store.db
      .update(reviewJobs)
      .set({ status: 'running', attempts: MAX_ATTEMPTS, leaseOwner: 'gone', heartbeatAt: new Date(Date.now() - STALE_LEASE_MS - 1_000).toISOString() })
      .run();
    expect(app.deps.runtime.reviews.claim()).toMatchObject({ status: 'failed' });
    const detail = (await app.call(getGame, { id: gameId }, a.token)).body as { review: unknown; reviewRequest: { status: string; note: string } };
    expect(detail.review).toBeNull();
    expect(detail.reviewRequest.status).toBe('failed');
    expect(detail.reviewRequest.note).toMatch(/^abandoned: the review process stopped 3 times/);
    expect(detail.reviewRequest.note).toMatch(/ask for the review again \(request_game_review/);
    const status = reviewQueueStatus(app.deps, a.user.id);
    expect(status.failed).toBe(1);
    expect(status.failedRecently).toEqual([expect.objectContaining({ subjectKind: 'game', subjectId: gameId, note: detail.reviewRequest.note })]);
    // Asked again, the game is queued anew and the failure is history.
    expect((await app.call(requestGameReview, { id: gameId }, a.token)).status).toBe(202);
    expect((await app.call(getGame, { id: gameId }, a.token)).body).toMatchObject({ reviewRequest: { status: 'queued' } });
    expect(reviewQueueStatus(app.deps, a.user.id).failedRecently).toEqual([]);
  });

  test("get_game shows a review only when the owner has one of the game's moves, never another owner's (or another game's)", async () => {
    const a = app.addUser('A', 'a@example.test');
    const b = app.addUser('B', 'b@example.test');
    const [aGame] = seed(a.user.id, 'a');
    const [, bGame] = seed(b.user.id, 'b');
    const row = app.deps.store.db.select().from(games).all().find((g) => g.id === aGame)!;
    saveReview(app.deps.store, analysisRow(a.user.id, row.movesKey!, makeAnalysis({ sanMoves: ['e4', 'e5', 'Nf3', 'Nc6'], evals: [20, 20, 20, 20, 20] }), '2026-11-20T11:00:00Z'));
    expect((await app.call(getGame, { id: aGame }, a.token)).body).toMatchObject({ review: { analysedAt: expect.any(String) } });
    // B's game has other moves and B has no review at all: nothing of A's shows.
    expect((await app.call(getGame, { id: bGame }, b.token)).body).toMatchObject({ review: null, reviewRequest: null });
  });
});
