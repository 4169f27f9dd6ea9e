import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Stats } from '../../../schemas/aggregates.js';
import { storePgn } from '../../../src/services/games/gameWriter.js';
import { getChessStats } from '../../../tools/aggregates/get_chess_stats.js';
import { makeAnalysis } from '../../helpers/analysis.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { insertReviewedGame } from '../../helpers/reviewed.js';

/**
 * lichess's published formulas, written out here independently of src/chess:
 * win% = 50 + 50 · (2 / (1 + e^(−0.00368208 · cp)) − 1), cp clamped to ±1000 and a mate counting as
 * ±1000 (lila WinPercent.scala); move accuracy = 103.1668100711649 · e^(−0.04354415386753951 · win%
 * lost) − 3.166924740191411, plus the 1-point uncertainty bonus, within 0-100 (AccuracyPercent.scala).
 */
const winPct = (cp: number) => 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * Math.max(-1000, Math.min(1000, cp)))) - 1);
const moveAcc = (lost: number) => Math.min(100, Math.max(0, 103.1668100711649 * Math.exp(-0.04354415386753951 * lost) - 3.166924740191411 + 1));
const r1 = (x: number) => Math.round(x * 10) / 10;

// A rook ending: White Kg1 Ra1 f2 g2 h2; Black Kg8 f7 g7 h7. Every position is an endgame (divider-v1).
const ENDING = '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 40';

let app: TestApp;
let token: string;

async function stats() {
  const out = await app.call(getChessStats, { range: 'all' }, token);
  expect(out.status).toBe(200);
  return Stats.parse(out.body);
}

describe('insight blocks on reviewed games with clocks (worked by hand)', () => {
  // The fixture, owner always White:
  //  A 2026-10-10 siteB blitz 180+0, win,  reviewed: 1. e4 e5 2. Nf3 Nc6, every eval ±30 (no loss); clocks 178 179 170 15;
  //    rating 1500 → +8; platform accuracy 85; stored PGN ends "Normal"; opening Sicilian Defense: Najdorf Variation.
  //  B 2026-11-05 siteA rapid 600+5, win, reviewed from ENDING: 1. Kf1?? (engine: Ra8# , mate in 1) h6, evals: after Kf1
  //    Black to move −400 (White +4); clocks 590 595; rating 1400 → −5.
  //  C 2026-11-12 siteB blitz 180+0, loss, not reviewed; clocks 175 170 100 150 15 140 5; rating 1508 → −7;
  //    stored PGN ends "Time forfeit"; opening Sicilian Defense.
  beforeEach(() => {
    app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
    const me = app.addUser();
    token = me.token;
    const now = '2026-11-20T12:00:00.000Z';
    const a = makeAnalysis({ sanMoves: ['e4', 'e5', 'Nf3', 'Nc6'], evals: [30, -30, 30, -30, 30] });
    insertReviewedGame(app.deps.store, me.user, a, {
      playedAt: '2026-10-10T10:00:00.000Z',
      provider: 'siteB',
      timeClass: 'blitz',
      timeControl: '180+0',
      result: 'win',
      userRating: 1500,
      ratingDelta: 8,
      platformAccuracy: 85,
      opening: 'Sicilian Defense: Najdorf Variation',
      clocks: JSON.stringify([178, 179, 170, 15]),
      pgnHash: storePgn(app.deps.store, '[Event "A"]\n[Termination "Normal"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n', now),
    });
    const b = makeAnalysis({ startFen: ENDING, sanMoves: ['Kf1', 'h6'], evals: [0, -400, 400], lines: { 0: [{ score: { mate: 1 }, pv: 'Ra8#' }] } });
    insertReviewedGame(app.deps.store, me.user, b, {
      playedAt: '2026-11-05T10:00:00.000Z',
      provider: 'siteA',
      timeClass: 'rapid',
      timeControl: '600+5',
      result: 'win',
      userRating: 1400,
      ratingDelta: -5,
      clocks: JSON.stringify([590, 595]),
    });
    insertReviewedGame(app.deps.store, me.user, null, {
      playedAt: '2026-11-12T10:00:00.000Z',
      provider: 'siteB',
      timeClass: 'blitz',
      timeControl: '180+0',
      result: 'loss',
      userRating: 1508,
      ratingDelta: -7,
      opening: 'Sicilian Defense',
      movesCount: 4,
      clocks: JSON.stringify([175, 170, 100, 150, 15, 140, 5]),
      pgnHash: storePgn(app.deps.store, '[Event "C"]\n[Termination "Time forfeit"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 0-1\n', now),
    });
    // Another account's reviewed game never shows.
    const other = app.addUser();
    insertReviewedGame(app.deps.store, other.user, makeAnalysis({ sanMoves: ['d4', 'd5'], evals: [0, 0, 0] }), { clocks: JSON.stringify([1, 1]) });
  });
  afterEach(() => app.close());

  test('accuracyByPhase', async () => {
    const { accuracyByPhase } = await stats();
    // A: two owner moves, no win% lost → 100 each, book moves (no errors). B: Kf1 with mate in 1 on the board:
    // win% 97.54 (mate = +1000) → 81.35 (+400): 16.2 lost, a blunder (≥ 15).
    const lost = winPct(1000) - winPct(400);
    expect(lost).toBeGreaterThan(15);
    expect(accuracyByPhase).toEqual({
      reviewedGames: 2,
      opening: { games: 1, moves: 2, averageAccuracy: 100, errorsPer100Moves: 0 },
      middlegame: { games: 0, moves: 0, averageAccuracy: null, errorsPer100Moves: null },
      endgame: { games: 1, moves: 1, averageAccuracy: r1(moveAcc(lost)), errorsPer100Moves: 100 },
    });
  });

  test('timeManagement', async () => {
    const { timeManagement } = await stats();
    // Seconds spent by the owner (clock before − after + increment; before ply 1 = the base time):
    //  A: 180−178 = 2, 178−170 = 8.  B: 600−590+5 = 15.  C: 180−175 = 5, 175−100 = 75, 100−15 = 85, 15−5 = 10.
    // Under 10% before moving (A, C: < 18 s; B: < 60 s): only C's 4th move (15 s). C's clock fell to 15 and 5: low.
    expect(timeManagement).toEqual({
      gamesWithClocks: 3,
      byPhase: {
        opening: { moves: 2, games: 1, averageSeconds: 5 },
        middlegame: { moves: 0, games: 0, averageSeconds: null },
        endgame: { moves: 1, games: 1, averageSeconds: 15 },
      },
      byTimeClass: [
        { timeClass: 'blitz', moves: 6, games: 2, averageSeconds: r1((2 + 8 + 5 + 75 + 85 + 10) / 6) },
        { timeClass: 'rapid', moves: 1, games: 1, averageSeconds: 15 },
      ],
      lowClock: { moves: 7, movesUnder10Percent: 1, share: r1(100 / 7) },
      lostOnTime: { games: 2, lost: 1 },
      scoreWhenLow: { games: 1, win: 0, draw: 0, loss: 1, score: 0 },
    });
  });

  test('trend: month by month with end-of-month ratings', async () => {
    const { trend } = await stats();
    expect(trend).toEqual([
      { month: '2026-10', games: 1, score: 100, accuracy: { games: 1, average: 85 }, ratings: [{ provider: 'siteB', timeClass: 'blitz', rating: 1508 }] },
      {
        month: '2026-11',
        games: 2,
        score: 50,
        accuracy: { games: 0, average: null },
        ratings: [
          { provider: 'siteA', timeClass: 'rapid', rating: 1395 },
          { provider: 'siteB', timeClass: 'blitz', rating: 1501 },
        ],
      },
    ]);
  });
});

describe('openingsByEval (worked by hand)', () => {
  // Two reviewed 30-ply games of one family, all evaluations 0 except after moves 10 (ply 20) and 15 (ply 30),
  // where White is to move:
  //  D (owner White, win):  +50 and −120           → owner's view +0.50 and −1.20
  //  E (owner Black, draw): −100 and +700          → owner's view +1.00 and −7.00, clamped to −5
  // and one unreviewed game of another family.
  const knights = (a: string, b: string, c: string, d: string) => Array.from({ length: 30 }, (_, i) => [a, b, c, d][i % 4]);
  const evalsWith = (at20: number, at30: number) => Array.from({ length: 31 }, (_, i) => (i === 20 ? at20 : i === 30 ? at30 : 0));

  beforeEach(() => {
    app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
    const me = app.addUser();
    token = me.token;
    const d = makeAnalysis({ sanMoves: knights('Nf3', 'Nf6', 'Ng1', 'Ng8'), evals: evalsWith(50, -120) });
    const e = makeAnalysis({ sanMoves: knights('Nc3', 'Nc6', 'Nb1', 'Nb8'), evals: evalsWith(-100, 700) });
    insertReviewedGame(app.deps.store, me.user, d, { colour: 'white', result: 'win', opening: 'Zukertort Opening: Quiet System', playedAt: '2026-11-01T10:00:00.000Z' });
    insertReviewedGame(app.deps.store, me.user, e, { colour: 'black', result: 'draw', opening: 'Zukertort Opening', playedAt: '2026-11-02T10:00:00.000Z' });
    insertReviewedGame(app.deps.store, me.user, null, { colour: 'white', result: 'loss', opening: 'French Defense', playedAt: '2026-11-03T10:00:00.000Z' });
  });
  afterEach(() => app.close());

  test('families by games, score and the mean evaluation after moves 10 and 15', async () => {
    const { openingsByEval } = await stats();
    expect(openingsByEval).toEqual([
      { opening: 'Zukertort Opening', games: 2, score: 75, afterMove10: { games: 2, averagePawns: 0.75 }, afterMove15: { games: 2, averagePawns: -3.1 } },
      { opening: 'French Defense', games: 1, score: 0, afterMove10: { games: 0, averagePawns: null }, afterMove15: { games: 0, averagePawns: null } },
    ]);
  });

  test('a window with no games: every figure null or 0, never invented', async () => {
    const out = await app.call(getChessStats, { range: '30d', provider: 'fed' }, token);
    const s = Stats.parse(out.body);
    expect(s.accuracyByPhase.opening).toEqual({ games: 0, moves: 0, averageAccuracy: null, errorsPer100Moves: null });
    expect(s.timeManagement.lowClock.share).toBeNull();
    expect(s.timeManagement.scoreWhenLow.score).toBeNull();
    expect(s.openingsByEval).toEqual([]);
    expect(s.trend).toEqual([]);
  });
});
