import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listGames } from '../../../src/services/games/games.js';
import { gameDetail } from '../../../src/services/review/gameReview.js';
import { ListGamesInput } from '../../../schemas/games.js';
import { ApiError } from '../../../src/errors.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { addGames, gameRow } from '../../helpers/games.js';
import type { PersonalCtx } from '../../../src/context.js';

/**
 * Eight hand-built games; every expectation below is read off this table.
 * id  provider date        colour result  opp          tc       moves opening                         line               event/eco  acc(p/r)
 * g1  siteA    2025-03-01  white  win     Magnus_fan   blitz    30    Sicilian Defense: Najdorf       e4 c5 Nf3 d6        -/B90     80/-
 * g2  siteB    2025-03-02  black  loss    carlsenFAN   bullet   12    Sicilian Defense: Dragon        e4 c5 Nf3 d6 d4     -/B70     -/65
 * g3  siteB    2025-03-02  white  draw    Hikaru       rapid    45    Italian Game                    e4 e5 Nf3 Nc6 Bc4   -/C50     -/-
 * g4  fed      2025-04-10  black  win     John Smith   standard 0     -                               -                  Hastings  -/-
 * g5  manual   2025-05-20  white  loss    Jane Doe     classical 5    Queen's Gambit Declined         d4 d5 c4 e6        -/D30     -/-
 * g6  pgn      2025-06-01  black  draw    magnus       rapid    60    Sicilian Defense: Najdorf       e4 c5 Nf3 d6 d4 cxd4 Club 100% -/B90 90/70
 * g7  siteA    2025-06-01  white  win     Zed          daily    25    null                            e4 c50-like trap    -        55/-
 * g8  siteB    2026-01-01  white  loss    other        blitz    40    Sicilian Defense                E4 c5 (wrong case)  -/B20     -/-
 */
let app: TestApp;
let ctx: PersonalCtx;
let other: PersonalCtx;
const ids: Record<string, string> = {};

beforeAll(() => {
  app = makeTestApp();
  ({ ctx } = app.addUser('Owner'));
  ({ ctx: other } = app.addUser('Other'));
  const u = ctx.user.id;
  addGames(app.deps.store, app.deps.clock, [
    gameRow(u, { sourceId: 'g1', provider: 'siteA', playedAt: '2025-03-01T10:00:00.000Z', opponent: 'Magnus_fan', timeClass: 'blitz', movesCount: 30, opening: 'Sicilian Defense: Najdorf Variation', eco: 'B90', sanMoves: 'e4 c5 Nf3 d6', movesSource: 'pgn', platformAccuracy: 80 }),
    gameRow(u, { sourceId: 'g2', playedAt: '2025-03-02T09:00:00.000Z', colour: 'black', result: 'loss', opponent: 'carlsenFAN', timeClass: 'bullet', movesCount: 12, opening: 'Sicilian Defense: Dragon Variation', eco: 'B70', sanMoves: 'e4 c5 Nf3 d6 d4', movesSource: 'pgn', reviewAccuracy: 65 }),
    gameRow(u, { sourceId: 'g3', playedAt: '2025-03-02T23:59:59.999Z', result: 'draw', opponent: 'Hikaru', timeClass: 'rapid', movesCount: 45, opening: 'Italian Game', eco: 'C50', sanMoves: 'e4 e5 Nf3 Nc6 Bc4', movesSource: 'pgn' }),
    gameRow(u, { sourceId: 'g4', provider: 'fed', playedAt: '2025-04-10T00:00:00.000Z', colour: 'black', opponent: 'John Smith', timeClass: 'standard', movesCount: 0, event: 'Hastings Congress 2025' }),
    gameRow(u, { sourceId: 'g5', provider: 'manual', playedAt: '2025-05-20T18:00:00.000Z', result: 'loss', opponent: 'Jane Doe', timeClass: 'classical', movesCount: 5, opening: "Queen's Gambit Declined", eco: 'D30', sanMoves: 'd4 d5 c4 e6', movesSource: 'opening-only' }),
    gameRow(u, { sourceId: 'g6', provider: 'pgn', playedAt: '2025-06-01T08:00:00.000Z', colour: 'black', result: 'draw', opponent: 'magnus', timeClass: 'rapid', movesCount: 60, opening: 'Sicilian Defense: Najdorf Variation', eco: 'B90', event: 'Club 100% night', sanMoves: 'e4 c5 Nf3 d6 d4 cxd4', movesSource: 'pgn', platformAccuracy: 90, reviewAccuracy: 70 }),
    gameRow(u, { sourceId: 'g7', provider: 'siteA', playedAt: '2025-06-01T20:00:00.000Z', opponent: 'Zed', timeClass: 'daily', movesCount: 25, sanMoves: 'e4 c50', movesSource: 'pgn', platformAccuracy: 55 }),
    gameRow(u, { sourceId: 'g8', playedAt: '2026-01-01T00:00:00.000Z', result: 'loss', opponent: 'other', timeClass: 'blitz', movesCount: 40, opening: 'Sicilian Defense', eco: 'B20', sanMoves: 'E4 c5', movesSource: 'pgn' }),
  ]);
  // The other user owns a game too: it must never appear.
  addGames(app.deps.store, app.deps.clock, [gameRow(other.user.id, { sourceId: 'x1', opponent: 'Magnus_fan', sanMoves: 'e4 c5 Nf3 d6', movesSource: 'pgn' })]);
  for (const row of app.deps.store.sqlite.prepare('SELECT id, source_id AS s FROM games').all() as Array<{ id: string; s: string }>) ids[row.s] = row.id;
});
afterAll(() => app.close());

const list = (q: Record<string, unknown>) => listGames(ctx, ListGamesInput.parse(q));
const sources = (q: Record<string, unknown>) => {
  const byId = Object.fromEntries(Object.entries(ids).map(([s, id]) => [id, s]));
  return list(q).games.map((g) => byId[g.id]);
};

describe('list_games filters (spec 4.2)', () => {
  test.each([
    [{}, ['g8', 'g7', 'g6', 'g5', 'g4', 'g3', 'g2', 'g1']],
    [{ sort: 'date-asc' }, ['g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7', 'g8']],
    [{ provider: 'siteA,fed' }, ['g7', 'g4', 'g1']],
    [{ result: 'draw' }, ['g6', 'g3']],
    [{ colour: 'black' }, ['g6', 'g4', 'g2']],
    [{ timeClass: 'rapid,daily' }, ['g7', 'g6', 'g3']],
    // Inclusive UTC days: g3 at 23:59:59.999 on the 2nd is in, g4 on 04-10 is out.
    [{ from: '2025-03-02', to: '2025-03-02' }, ['g3', 'g2']],
    [{ to: '2025-03-01' }, ['g1']],
    [{ from: '2025-06-01' }, ['g8', 'g7', 'g6']],
    // Inverted pair: both bounds dropped, everything matches.
    [{ movesMin: 25, movesMax: 45 }, ['g8', 'g7', 'g3', 'g1']],
    [{ movesMax: 0 }, ['g4']],
    // Opening prefix is case-insensitive.
    [{ opening: 'sicilian defense: n' }, ['g6', 'g1']],
    [{ opponent: 'MAGNUS' }, ['g6', 'g1']],
    // Whole-move, case-sensitive SAN prefix: "e4 c5" matches g1 g2 g6, not g7 ("e4 c50") nor g8 ("E4 c5").
    [{ lineMoves: 'e4 c5' }, ['g6', 'g2', 'g1']],
    [{ lineMoves: '  e4   c5  Nf3 d6 ' }, ['g6', 'g2', 'g1']],
    [{ lineMoves: 'e4 c5 Nf3 d6 d4' }, ['g6', 'g2']],
    [{ lineMoves: 'e4' }, ['g7', 'g6', 'g3', 'g2', 'g1']],
    // q over opponent, opening, event and ECO; "%" is taken literally.
    [{ q: 'hastings' }, ['g4']],
    [{ q: 'b90' }, ['g6', 'g1']],
    [{ q: '100%' }, ['g6']],
    [{ q: 'xyz' }, []],
    // Effective accuracy: platform first (g6 90, g1 80, g7 55), review as fallback (g2 65); no accuracy last, newest first.
    [{ sort: 'accuracy-desc' }, ['g6', 'g1', 'g2', 'g7', 'g8', 'g5', 'g4', 'g3']],
    [{ sort: 'accuracy-asc' }, ['g7', 'g2', 'g1', 'g6', 'g8', 'g5', 'g4', 'g3']],
    [{ provider: 'siteB', result: 'loss', colour: 'white' }, ['g8']],
  ])('%j', (q, expected) => {
    expect(sources(q)).toEqual(expected);
  });

  test('filters are echoed as applied', () => {
    const res = list({ from: '2025-03-01', to: '2025-06-01', provider: 'siteA,siteA', lineMoves: ' e4  c5 ' });
    expect(res.filters).toMatchObject({ from: '2025-03-01', to: '2025-06-01', providers: ['siteA'], lineMoves: 'e4 c5', sort: 'date-desc', q: null });
  });

  test('from after to is a 400 naming both days; the same day as both bounds is one day', () => {
    expect(() => list({ from: '2025-06-01', to: '2025-03-01' })).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/from \(2025-06-01\) is after to \(2025-03-01\)/) }));
    expect(() => list({ from: '2025-03-01', to: '2025-03-01' })).not.toThrow();
  });

  test('effective accuracy and its source on the summary', () => {
    const byId = Object.fromEntries(list({}).games.map((g) => [g.id, g]));
    expect([byId[ids.g6].accuracy, byId[ids.g6].accuracySource]).toEqual([90, 'platform']);
    expect([byId[ids.g2].accuracy, byId[ids.g2].accuracySource]).toEqual([65, 'review']);
    expect([byId[ids.g3].accuracy, byId[ids.g3].accuracySource]).toEqual([null, null]);
  });

  test('reviewed: the engine’s review counts, a platform accuracy alone does not; the filter keeps either side', () => {
    const byId = Object.fromEntries(list({}).games.map((g) => [g.id, g]));
    expect([byId[ids.g2].reviewed, byId[ids.g6].reviewed, byId[ids.g1].reviewed, byId[ids.g3].reviewed]).toEqual([true, true, false, false]);
    // g2 and g6 carry a review accuracy (date-desc: g6 first); the other six do not.
    expect(sources({ reviewed: 'yes' })).toEqual(['g6', 'g2']);
    expect(sources({ reviewed: 'no' })).toEqual(['g8', 'g7', 'g5', 'g4', 'g3', 'g1']);
    expect(list({ reviewed: 'yes', colour: 'black' })).toMatchObject({ total: 2, filters: { reviewed: 'yes' } });
    expect(list({}).filters.reviewed).toBe(null);
    expect(() => ListGamesInput.parse({ reviewed: 'maybe' })).toThrow();
  });

  test('pagination: 50 a page, a page past the last falls back to page 1', () => {
    expect(list({})).toMatchObject({ page: 1, pageCount: 1, total: 8, pageSize: 50 });
    expect(list({ page: 7 })).toMatchObject({ page: 1, pageCount: 1 });
    expect(list({ q: 'nothing matches' })).toMatchObject({ page: 1, pageCount: 1, total: 0 });
  });

  test('a page of 50 out of 120 games, and the third page holds the last 20', () => {
    const t = makeTestApp();
    const { ctx: c } = t.addUser();
    addGames(t.deps.store, t.deps.clock, Array.from({ length: 120 }, (_, i) => gameRow(c.user.id, { sourceId: `p${i}`, playedAt: new Date(Date.UTC(2025, 0, 1) + i * 3600_000).toISOString() })));
    expect(listGames(c, ListGamesInput.parse({ page: 3 }))).toMatchObject({ page: 3, pageCount: 3, total: 120 });
    expect(listGames(c, ListGamesInput.parse({ page: 3 })).games).toHaveLength(20);
    expect(listGames(c, ListGamesInput.parse({ page: 4 })).page).toBe(1);
    return t.close();
  });
});

test('lineMoves ends on a whole move: "… Qh5" does not match a game that played "… Qh5+"', () => {
  const t = makeTestApp();
  const { ctx: c } = t.addUser();
  addGames(t.deps.store, t.deps.clock, [
    gameRow(c.user.id, { sourceId: 'q1', sanMoves: 'e4 e5 Qh5', movesSource: 'pgn' }),
    gameRow(c.user.id, { sourceId: 'q2', sanMoves: 'e4 e5 Qh5+ Ke7', movesSource: 'pgn' }),
    gameRow(c.user.id, { sourceId: 'q3', sanMoves: 'e4 e5 Qh5 Nc6', movesSource: 'pgn' }),
  ]);
  const found = (line: string) => listGames(c, ListGamesInput.parse({ lineMoves: line })).games.map((g) => g.sourceUrl.slice(-2)).sort();
  expect(found('e4 e5 Qh5')).toEqual(['q1', 'q3']);
  expect(found('e4 e5 Qh5+')).toEqual(['q2']);
  expect(found('e4 e5')).toEqual(['q1', 'q2', 'q3']);
  return t.close();
});

describe('get_game', () => {
  test('moves come only from what is stored: pgn, opening-only, or none', () => {
    expect(gameDetail(ctx, ids.g1)).toMatchObject({ moves: ['e4', 'c5', 'Nf3', 'd6'], movesSource: 'pgn', review: null });
    expect(gameDetail(ctx, ids.g5)).toMatchObject({ moves: ['d4', 'd5', 'c4', 'e6'], movesSource: 'opening-only', pgn: null });
    expect(gameDetail(ctx, ids.g4)).toMatchObject({ moves: [], movesSource: null, pgn: null });
  });

  test("another user's game is indistinguishable from an unknown id", () => {
    const foreign = app.deps.store.sqlite.prepare("SELECT id FROM games WHERE source_id = 'x1'").get() as { id: string };
    const err = (id: string) => {
      try {
        gameDetail(ctx, id);
      } catch (e) {
        return [(e as ApiError).status, (e as ApiError).message];
      }
      return null;
    };
    expect(err(foreign.id)).toEqual(err('00000000-0000-0000-0000-000000000000'));
    expect(err(foreign.id)?.[0]).toBe(404);
    expect(list({ opponent: 'Magnus_fan' }).total).toBe(1);
  });
});
