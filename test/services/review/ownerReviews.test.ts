import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { ownerReview } from '../../../src/services/review/records.js';
import { connectSource } from '../../../src/services/sync/connections.js';
import { syncConnection } from '../../../src/services/sync/index.js';
import { analyses, games, reviewJobs } from '../../../src/store/schema/index.js';
import { getGameAnalysis } from '../../../tools/analysis/get_game_analysis.js';
import { requestGameReview } from '../../../tools/games/request_game_review.js';
import { requestStudyAnalysis } from '../../../tools/study/request_study_analysis.js';
import { uploadStudyGame } from '../../../tools/study/upload_study_game.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { fixtureLines, playLichess } from '../sync/sourceFixtures.js';

/**
 * Issue 37 item 1, both reproductions, with two owners on one server: P syncs a lichess game that lichess
 * analysed (a real export, fixtures/sources/lichess-analysed/README.md: SpMZFyA2, 21 plies, megaloblasto
 * Black, mated), Q holds the same moves as a study game. Whoever's review came first, the other's review is
 * their own: Q's request queues and runs Q's engine; P's sync stores lichess's analysis as P's review.
 */
const GAME = fixtureLines('lichess-analysed/games.ndjson').find((l) => JSON.parse(l).id === 'SpMZFyA2')!;
const SAN: string[] = JSON.parse(GAME).moves.split(' ');
const STUDY_PGN = `[Event "Q's study"]\n[Result "0-1"]\n\n${SAN.map((m, i) => (i % 2 ? m : `${i / 2 + 1}. ${m}`)).join(' ')} 0-1\n`;
// A stand-in engine (100 ms a search, named "Slow 1"): whose review is whose shows in the engine named.
const SLOW = fileURLToPath(new URL('../../fixtures/uci/slow-engine.mjs', import.meta.url));
const LICHESS = 'lichess server analysis';

let server: FixtureServer;
let app: TestApp;
afterEach(async () => {
  await app?.close();
  await server?.close();
});

async function setUp() {
  server = await startFixtureServer();
  app = makeTestApp({ env: { CFP_LICHESS_URL: server.url, CFP_STOCKFISH: SLOW, CFP_ENGINE_WORKERS: '2', CFP_ENGINE_DEEP_NODES: '0' } });
  const p = app.addUser('Megaloblasto', 'p@example.test');
  const q = app.addUser('Quinn', 'q@example.test');
  playLichess(server, { lines: [GAME] });
  const syncP = async () => {
    const s = await syncConnection(app.deps, connectSource(app.deps, p.user.id, 'siteB', 'megaloblasto'));
    expect(s).toMatchObject({ error: null, stored: 1 });
    return app.deps.store.db.select().from(games).get()!;
  };
  return { p, q, syncP };
}

type Answer = { status: string; alreadyReviewed?: boolean; note: string };

describe('reviews belong to their owner (issue 37 item 1)', () => {
  test("P's lichess-imported review is P's alone: Q's request for the same moves queues, runs Q's engine, and says nothing of P's game", async () => {
    const { p, q, syncP } = await setUp();
    const game = await syncP();
    expect(ownerReview(app.deps.store, p.user.id, game.movesKey)!.engine).toBe(LICHESS);

    const study = (await app.call(uploadStudyGame, { pgn: STUDY_PGN }, q.token)).body as { id: string; movesKey?: string };
    const first = await app.call(requestStudyAnalysis, { id: study.id }, q.token);
    // Queued and charged, as for moves nobody on the server has: not "already reviewed".
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ status: 'queued' });
    expect((first.body as Answer).note).toMatch(/One unit of the hourly review allowance was spent/);
    expect(app.deps.store.db.select().from(reviewJobs).all().map((j) => [j.userId, j.status])).toEqual([[q.user.id, 'queued']]);

    app.deps.runtime.reviews.startWorkers();
    const done = await app.call(requestStudyAnalysis, { id: study.id, wait: 30 }, q.token);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'complete', alreadyReviewed: false });
    // Q's engine ran: Q's review is Q's engine's, and nothing in the answer names lichess.
    expect((done.body as Answer).note).toMatch(/^review finished \(Slow 1/);
    expect(JSON.stringify(done.body)).not.toMatch(/lichess/i);
    const qReview = ownerReview(app.deps.store, q.user.id, game.movesKey)!;
    expect(qReview.engine).toMatch(/^Slow 1/);
    expect(qReview.engineOutput().positions.filter((x) => !x.terminal).every((x) => x.nodes > 0)).toBe(true);

    // P's review is untouched: still lichess's, with lichess's judgments.
    const pAnalysis = (await app.call(getGameAnalysis, { id: game.id, limit: 120 }, p.token)).body as { provenance: { engineVersion: string } };
    expect(pAnalysis.provenance.engineVersion).toBe(LICHESS);
    const rows = app.deps.store.db.select({ u: analyses.userId, e: analyses.engine }).from(analyses).all();
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(expect.arrayContaining([
      { u: q.user.id, e: qReview.engine },
      { u: p.user.id, e: LICHESS },
    ]));
  }, 60_000);

  test("Q's engine review is Q's alone: P's later sync of the lichess game with those moves stores lichess's analysis as P's review", async () => {
    const { p, q, syncP } = await setUp();
    app.deps.runtime.reviews.startWorkers();
    const study = (await app.call(uploadStudyGame, { pgn: STUDY_PGN }, q.token)).body as { id: string };
    const done = await app.call(requestStudyAnalysis, { id: study.id, wait: 30 }, q.token);
    expect(done.body).toMatchObject({ status: 'complete', alreadyReviewed: false });

    const game = await syncP();
    const pReview = ownerReview(app.deps.store, p.user.id, game.movesKey)!;
    expect(pReview.engine).toBe(LICHESS);
    expect(pReview.derivation.plies.map((x) => x.judgment)).toEqual(SAN.map((_, i) => JSON.parse(GAME).analysis[i]?.judgment?.name.toLowerCase() ?? null));
    // P's game carries lichess's figure for P (Black), not one from Q's engine run.
    expect(Math.round(game.reviewAccuracy!)).toBe(JSON.parse(GAME).players.black.analysis.accuracy);
    const again = await app.call(requestGameReview, { id: game.id }, p.token);
    expect(again.body).toMatchObject({ status: 'complete', alreadyReviewed: true });
    expect((again.body as Answer).note).toMatch(/^already reviewed \(lichess server analysis/);
    // Q's is still Q's engine's.
    expect(ownerReview(app.deps.store, q.user.id, game.movesKey)!.engine).toMatch(/^Slow 1/);
  }, 60_000);
});
