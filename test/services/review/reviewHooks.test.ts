// The study and coaching services lean on two hooks of the review pipeline (src/services/review/reviewRequests.ts),
// built on the engine branch. Here they are replaced by recording fakes to check what is handed over
// and what is copied back; test/tools/* covers the "no review yet" path against the real (empty) hooks.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { parsePgn, START_FEN } from '../../../src/chess/pgn.js';
import { Reply } from '../../../src/errors.js';
import type { ReviewSubject } from '../../../src/services/review/reviewRequests.js';
import { savePosition } from '../../../tools/coaching/save_position.js';
import { requestStudyAnalysis } from '../../../tools/study/request_study_analysis.js';
import { uploadStudyGame } from '../../../tools/study/upload_study_game.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { addPlayedGame, OPERA_PGN } from '../coaching/coachingFixtures.js';

const hooks = vi.hoisted(() => ({
  subjects: [] as Array<{ subject: unknown; wait: number }>,
  lookups: [] as Array<{ movesKey: string; ply: number }>,
}));

vi.mock('../../../src/services/review/reviewRequests.js', () => ({
  requestReview: async (_ctx: unknown, subject: ReviewSubject, wait: number) => {
    hooks.subjects.push({ subject, wait });
    return new Reply(202, { status: 'queued', id: subject.id, note: 'queued' });
  },
  reviewedPosition: (_ctx: unknown, movesKey: string, ply: number) => {
    hooks.lookups.push({ movesKey, ply });
    const plies = parsePgn(OPERA_PGN).plies;
    // The fake review: the position after `ply`, with a made-up but well-formed score.
    return { fen: ply === 0 ? START_FEN : plies[ply - 1].fenAfter, evaluation: { cp: -250, mate: null }, bestMoveUci: 'e7e6' };
  },
}));

let app: TestApp;
beforeEach(() => {
  app = makeTestApp();
  hooks.subjects.length = 0;
  hooks.lookups.length = 0;
});
afterEach(() => app.close());

describe('request_study_analysis hands the owned game to the review pipeline', () => {
  test('the subject is the study row: start position, UCI mainline, no user colour; the reply passes through', async () => {
    const { token } = app.addUser();
    const row = (await app.call(uploadStudyGame, { pgn: OPERA_PGN }, token)).body as { id: string };
    const res = await app.call(requestStudyAnalysis, { id: row.id, wait: 5 }, token);
    expect(res).toMatchObject({ status: 202, body: { status: 'queued', id: row.id } });
    const uci = parsePgn(OPERA_PGN).plies.map((p) => p.uci);
    // The Opera game's first and last moves: 1.e4 (e2e4), 17.Rd8# (d1d8).
    expect([uci[0], uci.at(-1)]).toEqual(['e2e4', 'd1d8']);
    expect(hooks.subjects).toEqual([{ subject: { kind: 'study', id: row.id, startFen: START_FEN, movesUci: uci, userColour: null }, wait: 5 }]);
  });

  test('a foreign id never reaches the pipeline', async () => {
    const a = app.addUser();
    const b = app.addUser();
    const row = (await app.call(uploadStudyGame, { pgn: OPERA_PGN }, a.token)).body as { id: string };
    expect((await app.call(requestStudyAnalysis, { id: row.id }, b.token)).status).toBe(404);
    expect(hooks.subjects).toEqual([]);
  });
});

describe('save_position from a reviewed game copies the review', () => {
  test('FEN, evaluation and best move come from the review of that movesKey and ply', async () => {
    const { ctx, token } = app.addUser();
    const gameId = addPlayedGame(ctx);
    // Ply 19 is 10.Nxb5 (White's 10th move: 9 × 2 + 1).
    const res = await app.call(savePosition, { gameId, ply: 19, label: 'Nxb5!', fen: '8/8/8/8/8/8/8/8 w - - 0 1' }, token);
    expect(res.status).toBe(200);
    const expectedFen = parsePgn(OPERA_PGN).plies[18].fenAfter;
    expect(parsePgn(OPERA_PGN).plies[18].san).toBe('Nxb5');
    expect(res.body).toMatchObject({
      fen: expectedFen,
      source: { kind: 'game', id: gameId, ply: 19 },
      evaluation: { cp: -250, mate: null },
      bestMoveUci: 'e7e6',
    });
    const movesKey = (ctx.store.sqlite.prepare('SELECT moves_key AS k FROM games WHERE id = ?').get(gameId) as { k: string }).k;
    expect(hooks.lookups).toEqual([{ movesKey, ply: 19 }]);
  });

  test('from an owned study game, ply 0 is the start position', async () => {
    const { token } = app.addUser();
    const row = (await app.call(uploadStudyGame, { pgn: OPERA_PGN }, token)).body as { id: string };
    const res = await app.call(savePosition, { gameId: row.id, ply: 0, label: 'start' }, token);
    expect(res.body).toMatchObject({ fen: START_FEN, source: { kind: 'study', id: row.id, ply: 0 } });
  });
});
