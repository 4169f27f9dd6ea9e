import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { getChessStats } from '../../../tools/aggregates/get_chess_stats.js';
import { Stats } from '../../../schemas/aggregates.js';
import { insertGames } from '../../../src/services/games/gameWriter.js';
import { addGames, gameRow } from '../../helpers/gameRows.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

// The clock stands at Friday 2026-11-20 12:00 UTC.
// The fixture (chronological), W = win, D = draw, L = loss; accuracy = platform ?? review:
//  #  date        weekday provider raw tc      colour result opp  own  opening                     moves accuracy
//  1  2026-09-07  Mon     siteA    blitz       white  W      1500 1480 Sicilian Defense: Najdorf    35   80 (platform)
//  2  2026-09-08  Tue     siteA    blitz       black  L      1400 1488 Sicilian Defense             25   70 (review)
//  3  2026-10-05  Mon     siteB    ultraBullet white  D      1600 1550 Italian Game                 45   —
//  4  2026-10-06  Tue     siteB    classical   black  W      1700 1552 Italian Game: Two Knights    70   90
//  5  2026-11-02  Mon     fed      standard    white  W      1800 1750 —                             0   —
//  6  2026-11-03  Tue     fed      standard    black  L      1650 1750 —                             0   —
//  7  2026-11-10  Tue     siteA    rapid       white  W      1520 1478 Sicilian Defense             15   60
//  8  2026-11-11  Wed     siteA    rapid       black  W      —    —    French Defense               55   —
let app: TestApp;
let token: string;
let ids: string[];

beforeEach(() => {
  app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
  const u = app.addUser();
  token = u.token;
  const id = u.user.id;
  ids = addGames(app.deps.store, app.clock, [
    gameRow(id, { playedAt: '2026-09-07T10:00:00.000Z', provider: 'siteA', timeClass: 'blitz', colour: 'white', result: 'win', opponentRating: 1500, userRating: 1480, opening: 'Sicilian Defense: Najdorf Variation', movesCount: 35, platformAccuracy: 80 }),
    gameRow(id, { playedAt: '2026-09-08T10:00:00.000Z', provider: 'siteA', timeClass: 'blitz', colour: 'black', result: 'loss', opponentRating: 1400, userRating: 1488, opening: 'Sicilian Defense', movesCount: 25, reviewAccuracy: 70 }),
    gameRow(id, { playedAt: '2026-10-05T10:00:00.000Z', provider: 'siteB', timeClass: 'ultraBullet', colour: 'white', result: 'draw', opponentRating: 1600, userRating: 1550, opening: 'Italian Game', movesCount: 45 }),
    gameRow(id, { playedAt: '2026-10-06T10:00:00.000Z', provider: 'siteB', timeClass: 'classical', colour: 'black', result: 'win', opponentRating: 1700, userRating: 1552, opening: 'Italian Game: Two Knights Defense', movesCount: 70, platformAccuracy: 90 }),
    gameRow(id, { playedAt: '2026-11-02T19:00:00.000Z', provider: 'fed', timeClass: 'standard', colour: 'white', result: 'win', opponentRating: 1800, userRating: 1750, movesCount: 0 }),
    gameRow(id, { playedAt: '2026-11-03T19:00:00.000Z', provider: 'fed', timeClass: 'standard', colour: 'black', result: 'loss', opponentRating: 1650, userRating: 1750, movesCount: 0 }),
    gameRow(id, { playedAt: '2026-11-10T10:00:00.000Z', provider: 'siteA', timeClass: 'rapid', colour: 'white', result: 'win', opponentRating: 1520, userRating: 1478, opening: 'Sicilian Defense', movesCount: 15, platformAccuracy: 60 }),
    gameRow(id, { playedAt: '2026-11-11T10:00:00.000Z', provider: 'siteA', timeClass: 'rapid', colour: 'black', result: 'win', opening: 'French Defense', movesCount: 55 }),
  ]);
  // Another account's game must never show up in the owner's figures.
  const other = app.addUser();
  addGames(app.deps.store, app.clock, [gameRow(other.user.id, { playedAt: '2026-11-12T10:00:00.000Z', result: 'loss', opponentRating: 900 })]);
});
afterEach(() => app.close());

async function stats(input: Record<string, string> = {}) {
  const out = await app.call(getChessStats, input, token);
  expect(out.status).toBe(200);
  return Stats.parse(out.body);
}

describe('get_chess_stats on the hand-worked fixture (range 1y: all 8 games)', () => {
  test('totals, accuracy, window', async () => {
    const s = await stats();
    expect(s.filters).toEqual({ range: '1y', providers: null, timeClasses: null, opening: null });
    expect(s.window).toEqual({ from: '2025-11-20', to: null }); // 365 days before 2026-11-20
    expect(s.games).toBe(8);
    expect(s.capped).toBe(false);
    // White: #1 W, #3 D, #5 W, #7 W → 3/1/0; winRate 3/4 = 75; score 3.5/4 = 87.5
    expect(s.totals.white).toEqual({ win: 3, draw: 1, loss: 0, total: 4, winRate: 75, score: 87.5 });
    // Black: #2 L, #4 W, #6 L, #8 W → 2/0/2; 50; 50
    expect(s.totals.black).toEqual({ win: 2, draw: 0, loss: 2, total: 4, winRate: 50, score: 50 });
    // Overall 5/1/2 of 8: winRate 62.5; score 5.5/8 = 68.75 → 68.8
    expect(s.totals.overall).toEqual({ win: 5, draw: 1, loss: 2, total: 8, winRate: 62.5, score: 68.8 });
    // Effective accuracy: 80, 70 (review), 90, 60 → 300/4 = 75
    expect(s.accuracy).toEqual({ games: 4, average: 75 });
  });

  test('online vs over-the-board, performance, best win, worst defeat', async () => {
    const s = await stats();
    // Online #1,2,3,4,7,8: W L D W W W → 4/1/1; winRate 4/6 = 66.7; score 4.5/6 = 75;
    // opponents 1500+1400+1600+1700+1520 = 7720 / 5 = 1544 (#8 unrated)
    expect(s.onlineVsOverTheBoard.online).toEqual({
      games: 6, win: 4, draw: 1, loss: 1, winRate: 66.7, score: 75, accuracy: { games: 4, average: 75 }, averageOpponentRating: 1544,
    });
    // Over the board #5 W, #6 L; opponents (1800 + 1650) / 2 = 1725
    expect(s.onlineVsOverTheBoard.overTheBoard).toEqual({
      games: 2, win: 1, draw: 0, loss: 1, winRate: 50, score: 50, accuracy: { games: 0, average: null }, averageOpponentRating: 1725,
    });
    // Rated opponents: all but #8 → 7 games, W4 D1 L2; mean 11170 / 7 = 1595.71
    // performance = 1595.71 + 400 × (4 − 2) / 7 = 1595.71 + 114.29 = 1710.0
    expect(s.performance).toEqual({ games: 7, averageOpponentRating: 1596, rating: 1710 });
    // Wins against 1500, 1700, 1800, 1520 → #5; losses to 1400, 1650 → #2
    expect(s.bestWin).toMatchObject({ gameId: ids[4], opponentRating: 1800, provider: 'fed', timeClass: 'standard', result: 'win' });
    expect(s.worstDefeat).toMatchObject({ gameId: ids[1], opponentRating: 1400, provider: 'siteA', timeClass: 'blitz', result: 'loss' });
  });

  test('streaks and last-10 form', async () => {
    const s = await stats();
    // Chronological W L D W W L W W
    expect(s.streaks.longestWin).toEqual({ length: 2, from: '2026-10-06T10:00:00.000Z', to: '2026-11-02T19:00:00.000Z' }); // #4-#5, first of two 2-runs
    expect(s.streaks.longestUnbeaten).toEqual({ length: 3, from: '2026-10-05T10:00:00.000Z', to: '2026-11-02T19:00:00.000Z' }); // D W W
    expect(s.streaks.longestLoss.length).toBe(1);
    expect(s.streaks.current).toEqual({ result: 'win', length: 2, unbeaten: 2 });
    expect(s.lastTen.results).toEqual(['win', 'win', 'loss', 'win', 'win', 'draw', 'loss', 'win']);
    expect(s.lastTen).toMatchObject({ games: 8, win: 5, draw: 1, loss: 2, score: 68.8 });
  });

  test('weekday, opponent strength, game length', async () => {
    const s = await stats();
    // Monday #1 W, #3 D, #5 W → 2.5/3 = 83.3; Tuesday #2 L, #4 W, #6 L, #7 W → 50; Wednesday #8 W
    expect(s.weekdays.map((w) => [w.weekday, w.games, w.score])).toEqual([
      ['Monday', 3, 83.3], ['Tuesday', 4, 50], ['Wednesday', 1, 100], ['Thursday', 0, 0],
      ['Friday', 0, 0], ['Saturday', 0, 0], ['Sunday', 0, 0],
    ]);
    // opponent − own: #1 +20, #2 −88, #3 +50, #4 +148, #5 +50, #6 −100, #7 +42 (#8 has no ratings)
    // Elo expectation 1/(1+10^(d/400)): +20 → .47124, +50 → .42854, +42 → .43985, −88 → .62400, −100 → .64006, +148 → .29901
    const band = Object.fromEntries(s.opponentStrength.map((b) => [b.bucket, b]));
    expect(band['much weaker (over 200 below)']).toMatchObject({ games: 0, expectedScore: null });
    // weaker: #2 L, #6 L → score 0; expected (.62400 + .64006) / 2 = .63203 → 63.2
    expect(band['weaker (51 to 200 below)']).toMatchObject({ games: 2, loss: 2, score: 0, expectedScore: 63.2 });
    // similar: #1 W, #3 D, #5 W, #7 W → 3.5/4 = 87.5; expected (.47124 + .42854 + .42854 + .43985) / 4 = .44204 → 44.2
    expect(band['similar (within 50)']).toMatchObject({ games: 4, win: 3, draw: 1, score: 87.5, expectedScore: 44.2 });
    expect(band['stronger (51 to 200 above)']).toMatchObject({ games: 1, win: 1, score: 100, expectedScore: 29.9 });
    expect(band['much stronger (over 200 above)']).toMatchObject({ games: 0 });
    // moves: #7 15 W | #2 25 L | #1 35 W | #3 45 D, #8 55 W | #4 70 W  (fed rows have no moves)
    expect(s.gameLength.map((b) => [b.min, b.max, b.games, b.score])).toEqual([
      [1, 20, 1, 100], [21, 30, 1, 0], [31, 40, 1, 100], [41, 60, 2, 75], [61, null, 1, 100],
    ]);
  });

  test('openings and monthly form', async () => {
    const s = await stats();
    // Sicilian Defense #1 W, #2 L, #7 W: 2/0/1, score 66.7, accuracy (80+70+60)/3 = 70
    // Italian Game #3 D, #4 W: score 75, accuracy 90 (one game); French Defense #8 W
    expect(s.openings).toEqual([
      { opening: 'Sicilian Defense', games: 3, win: 2, draw: 0, loss: 1, winRate: 66.7, score: 66.7, asWhite: 2, asBlack: 1, accuracy: { games: 3, average: 70 } },
      { opening: 'Italian Game', games: 2, win: 1, draw: 1, loss: 0, winRate: 50, score: 75, asWhite: 1, asBlack: 1, accuracy: { games: 1, average: 90 } },
      { opening: 'French Defense', games: 1, win: 1, draw: 0, loss: 0, winRate: 100, score: 100, asWhite: 0, asBlack: 1, accuracy: { games: 0, average: null } },
    ]);
    // Sep #1 W #2 L: 50, acc 75, opp 1450 | Oct #3 D #4 W: 75, acc 90, opp 1650 | Nov #5 W #6 L #7 W #8 W: 3.5... = 3/0/1 → 75, acc 60, opp (1800+1650+1520)/3 = 1656.7
    expect(s.monthly.map((m) => [m.month, m.games, m.score, m.accuracy.average, m.averageOpponentRating])).toEqual([
      ['2026-09', 2, 50, 75, 1450],
      ['2026-10', 2, 75, 90, 1650],
      ['2026-11', 4, 75, 60, 1657],
    ]);
  });

  test('filters: range, provider, time class mapping, opening prefix', async () => {
    // 30 days before 2026-11-20 is 2026-10-21: #5..#8
    expect((await stats({ range: '30d' })).games).toBe(4);
    expect((await stats({ range: '30d' })).window.from).toBe('2026-10-21');
    expect((await stats({ provider: 'siteA' })).totals.overall).toMatchObject({ total: 4, win: 3, loss: 1 });
    // standard = classical #4 + over-the-board #5, #6
    expect((await stats({ timeClass: 'standard' })).games).toBe(3);
    // ultraBullet maps to bullet: #3
    expect((await stats({ timeClass: 'bullet' })).games).toBe(1);
    expect((await stats({ timeClass: 'blitz,rapid', provider: 'siteA' })).games).toBe(4);
    const sic = await stats({ opening: 'sicilian' });
    expect(sic.games).toBe(3);
    expect(sic.filters.opening).toBe('sicilian');
    // range=all starts at the earliest game
    expect((await stats({ range: 'all' })).window.from).toBe('2026-09-07');
    expect((await app.call(getChessStats, { timeClass: 'classical' }, token)).status).toBe(400);
  });
});

test('capped: over 10,000 games in the window, the aggregates cover the most recent 10,000', async () => {
  const local = makeTestApp({ now: '2026-11-20T12:00:00Z' });
  const { user, token: t } = local.addUser();
  // 10,001 games a minute apart: the oldest is the only loss, so it must fall outside the aggregates.
  const start = Date.parse('2026-06-01T00:00:00Z');
  const batch = Array.from({ length: 10_001 }, (_, i) => ({
    game: gameRow(user.id, { playedAt: new Date(start + i * 60_000).toISOString(), result: i === 0 ? 'loss' : 'win' }),
  }));
  insertGames(local.deps.store, local.clock, batch);
  const s = Stats.parse((await local.call(getChessStats, {}, t)).body);
  expect(s.games).toBe(10_001);
  expect(s.capped).toBe(true);
  expect(s.gamesAggregated).toBe(10_000);
  expect(s.totals.overall).toMatchObject({ total: 10_000, win: 10_000, loss: 0 });
  await local.close();
});

test('exactly 10,000 games is not capped', async () => {
  const local = makeTestApp({ now: '2026-11-20T12:00:00Z' });
  const { user, token: t } = local.addUser();
  const start = Date.parse('2026-06-01T00:00:00Z');
  insertGames(local.deps.store, local.clock, Array.from({ length: 10_000 }, (_, i) => ({
    game: gameRow(user.id, { playedAt: new Date(start + i * 60_000).toISOString(), result: 'draw' }),
  })));
  const s = Stats.parse((await local.call(getChessStats, {}, t)).body);
  expect(s.capped).toBe(false);
  expect(s.totals.overall.draw).toBe(10_000);
  await local.close();
});
