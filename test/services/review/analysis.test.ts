import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { AnalysisResponse, CriticalMomentsResponse } from '../../../schemas/analysis.js';
import { gameAccuracy } from '../../../src/chess/accuracy.js';
import { Messages } from '../../../src/errors.js';
import { getCriticalMoments } from '../../../tools/analysis/get_critical_moments.js';
import { getGameAnalysis } from '../../../tools/analysis/get_game_analysis.js';
import { quietGame } from '../../helpers/analysis.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { insertReviewedGame } from '../../helpers/reviewed.js';

const analysis = () => quietGame();

let app: TestApp;
beforeEach(() => {
  app = makeTestApp();
});
afterEach(() => app.close());

describe('get_game_analysis', () => {
  test('an unknown id and another user’s id answer the same 404', async () => {
    const me = app.addUser();
    const other = app.addUser();
    const theirs = insertReviewedGame(app.deps.store, other.user, analysis());
    const a = await app.call(getGameAnalysis, { id: theirs }, me.token);
    const b = await app.call(getGameAnalysis, { id: '00000000-0000-4000-8000-000000000000' }, me.token);
    expect([a.status, b.status]).toEqual([404, 404]);
    expect(a.body).toEqual({ error: Messages.gameNotFound });
    expect(b.body).toEqual(a.body);
  });

  test('an owned game without a review: 200, analysed false and the next step', async () => {
    const me = app.addUser();
    const noMoves = insertReviewedGame(app.deps.store, me.user, null);
    const r = await app.call(getGameAnalysis, { id: noMoves }, me.token);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ analysed: false, gameId: noMoves });
    expect((r.body as { nextStep: string }).nextStep).toContain('attach_pgn');
    const unreviewed = insertReviewedGame(app.deps.store, me.user, null, { movesKey: 'abc', movesSource: 'pgn' });
    const u = await app.call(getGameAnalysis, { id: unreviewed }, me.token);
    expect((u.body as { nextStep: string }).nextStep).toContain('request_game_review');
  });

  test('a reviewed game: the full response validates against its schema; time control and clocks parsed', async () => {
    const me = app.addUser();
    const id = insertReviewedGame(app.deps.store, me.user, analysis(), { clocks: JSON.stringify([178, 175, 170, 160, 150, 140]) });
    const r = await app.call(getGameAnalysis, { id }, me.token);
    expect(r.status).toBe(200);
    const body = AnalysisResponse.parse(r.body);
    expect(body.timeControl).toEqual({ raw: '180+2', baseSeconds: 180, incrementSeconds: 2 });
    // lichess's method over the game's own evaluations, White's point of view after each ply.
    const lichess = gameAccuracy([-300, 200, 100, 100, -100, -100].map((e) => ({ eval: e })))!;
    expect(body.accuracyWhite).toBe(Math.round(lichess.white * 10) / 10);
    expect(body.plyCount).toBe(6);
    expect(body.conventions?.capCentipawns).toBe(500);
    expect(body.availability?.clocks).toBe(true);
    // ply 1: 180 − 178 + 2 = 4 s; ply 3: 178 − 170 + 2 = 10 s
    expect(body.plies?.[0]).toMatchObject({ ply: 1, moveNumber: 7, colour: 'white', isUserMove: true, clockSecondsBefore: 180, clockSecondsAfter: 178, timeSpentSeconds: 4 });
    expect(body.plies?.[2].timeSpentSeconds).toBe(10);
    expect(body.plies?.[0].playedMove).toEqual({ san: 'a3', uci: 'a2a3' });
    expect(body.plies?.[0].bestMove).toEqual({ san: 'Nc3', uci: 'b1c3' });
    expect(body.plies?.[0].centipawnLoss).toBe(400);
  });

  test('pagination: out-of-range fromPly degrades to 1, limit clamps, side user, nextFromPly continues', async () => {
    const me = app.addUser();
    const id = insertReviewedGame(app.deps.store, me.user, analysis());
    const r1 = AnalysisResponse.parse((await app.call(getGameAnalysis, { id, fromPly: 99, limit: 500 }, me.token)).body);
    expect(r1.pagination).toEqual({ fromPly: 1, limit: 120, side: 'both', returned: 6, matching: 6, totalPlies: 6, nextFromPly: null });
    const r2 = AnalysisResponse.parse((await app.call(getGameAnalysis, { id, fromPly: 2, limit: 0, side: 'user' }, me.token)).body);
    // White's plies from 2 on: 3 and 5; limit 0 clamps to 1.
    expect(r2.pagination).toEqual({ fromPly: 2, limit: 1, side: 'user', returned: 1, matching: 2, totalPlies: 6, nextFromPly: 5 });
    expect(r2.plies?.map((p) => p.ply)).toEqual([3]);
  });
});

describe('get_critical_moments', () => {
  test('filters are echoed; the response validates', async () => {
    const me = app.addUser();
    const id = insertReviewedGame(app.deps.store, me.user, analysis());
    const r = await app.call(getCriticalMoments, { id, maxMoments: 2, minCentipawnLoss: 100 }, me.token);
    expect(r.status).toBe(200);
    const body = CriticalMomentsResponse.parse(r.body);
    expect(body.filters).toEqual({ side: 'both', minSeverity: null, minCentipawnLoss: 100, maxMoments: 2 });
    expect(body).toMatchObject({ count: 2, matching: 4, limit: 2, truncated: true, maxLimit: 40, selection: 'most-severe-first' });
    expect(body.matchingBySource).toEqual({ engine: 3, derived: 1 });
    expect(body.availability?.matchesKnownWeakness).toBe(false);
  });

  test('unreviewed → analysed false; foreign → 404', async () => {
    const me = app.addUser();
    const other = app.addUser();
    const mine = insertReviewedGame(app.deps.store, me.user, null);
    expect((await app.call(getCriticalMoments, { id: mine }, me.token)).body).toMatchObject({ analysed: false, gameId: mine });
    const theirs = insertReviewedGame(app.deps.store, other.user, analysis());
    expect((await app.call(getCriticalMoments, { id: theirs }, me.token)).status).toBe(404);
  });
});
