import { afterEach, describe, expect, test } from 'vitest';
import { ProblemLines } from '../../../schemas/aggregates.js';
import { problemLinesOf, type LineGame } from '../../../src/services/stats/problemLines.js';
import { getProblemLines } from '../../../tools/aggregates/get_problem_lines.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { addGames, gameRow } from '../../helpers/gameRows.js';

const RUY = 'e4 e5 Nf3 Nc6 Bb5 a6'; // 6 plies
const QGD = 'd4 d5 c4 e6 Nc3 Nf6'; // the fillers' line, 6 plies

let n = 0;
function games(count: number, sanMoves: string, result: LineGame['result'], colour: LineGame['colour'] = 'white'): LineGame[] {
  return Array.from({ length: count }, () => ({ id: `g${++n}`, colour, result, sanMoves }));
}

describe('thresholds at their edges', () => {
  test('5 games qualify, 4 do not', () => {
    // 5 losses in the line + 5 filler wins: baseline 5/10 = 50 %, line 0 % → drop 50, SI 50 × log2 5 = 116.10
    const five = problemLinesOf('white', [...games(5, RUY, 'loss'), ...games(5, QGD, 'win')]).lines;
    expect(five).toHaveLength(1);
    expect(five[0]).toMatchObject({ lineMoves: RUY, plies: 6, games: 5, score: 0, baseline: 50, drop: 50, loss: 5 });
    expect(five[0].struggleIndex).toBeCloseTo(50 * Math.log2(5), 10);
    // 4 losses + 5 wins: baseline 55.6 %, drop 55.6 but only 4 games
    expect(problemLinesOf('white', [...games(4, RUY, 'loss'), ...games(5, QGD, 'win')]).lines).toEqual([]);
  });

  test('a drop of exactly 8 points qualifies, 7.9 does not', () => {
    // Line: 2 W, 1 D, 2 L = 2.5 / 5 = 50 %.
    const line = [...games(2, RUY, 'win'), ...games(1, RUY, 'draw'), ...games(2, RUY, 'loss')];
    // Baseline 58 %: 50 games with 29 points = line 2.5 + fillers 26 W, 1 D, 18 L (26.5 / 45 = 58.9 %, no drop)
    const eight = problemLinesOf('white', [...line, ...games(26, QGD, 'win'), ...games(1, QGD, 'draw'), ...games(18, QGD, 'loss')]).lines;
    expect(eight).toHaveLength(1);
    expect(eight[0]).toMatchObject({ lineMoves: RUY, games: 5, score: 50, baseline: 58, drop: 8 });
    expect(eight[0].struggleIndex).toBeCloseTo(8 * Math.log2(5), 10); // 18.58
    // Baseline 57.9 %: 500 games with 289.5 points = line 2.5 + fillers 287 W, 208 L (58.0 %): drop 7.9
    expect(problemLinesOf('white', [...line, ...games(287, QGD, 'win'), ...games(208, QGD, 'loss')]).lines).toEqual([]);
  });

  test('plies: a shared line shorter than 6 plies is never a line; nothing beyond 24 plies is looked at', () => {
    const short = 'e4 e5 Nf3 Nc6 Bb5'; // 5 plies
    expect(problemLinesOf('white', [...games(6, short, 'loss'), ...games(6, QGD, 'win')]).lines).toEqual([]);
    const long = Array.from({ length: 30 }, (_, i) => (i % 2 ? 'Nf6' : 'Nf3')).join(' '); // not legal chess, only SAN tokens
    const [l] = problemLinesOf('white', [...games(6, long, 'loss'), ...games(6, QGD, 'win')]).lines;
    expect(l.plies).toBe(24);
  });
});

describe('each line once, at its most informative length', () => {
  test('games sharing 8 plies then diverging give one 8-ply line, not the 6- and 7-ply prefixes', () => {
    const shared = 'e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6';
    const xs = [...games(3, `${shared} Nc3 a6`, 'loss'), ...games(3, `${shared} f3 e5`, 'loss'), ...games(6, QGD, 'win')];
    // plies 6, 7, 8: 6 games, 0 % against a 50 % baseline → SI 50 × log2 6 = 129.25 at each; the 9-ply branches have 3 games
    const lines = problemLinesOf('white', xs).lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ lineMoves: shared, plies: 8, games: 6, drop: 50 });
  });

  test('a concentrated sub-line beats its broader parent, and the parent is not repeated', () => {
    // 10 games share RUY; 5 go on with "O-O Be7" and all lose, 5 go "Ba4 Nf6" and all win. 10 filler: 5 W, 5 L.
    // Baseline (5 + 5) / 20 = 50 %. RUY: 50 % (no drop). RUY O-O Be7: 0 % over 5 → SI 116.1.
    const xs = [...games(5, `${RUY} O-O Be7`, 'loss'), ...games(5, `${RUY} Ba4 Nf6`, 'win'), ...games(5, QGD, 'win'), ...games(5, QGD, 'loss')];
    const lines = problemLinesOf('white', xs).lines;
    expect(lines.map((l) => l.lineMoves)).toEqual([`${RUY} O-O Be7`]);
  });

  test('the colours are judged separately, each against its own baseline', () => {
    const xs = [...games(5, RUY, 'loss', 'black'), ...games(5, QGD, 'win', 'black'), ...games(5, RUY, 'loss', 'white')];
    expect(problemLinesOf('black', xs).lines).toHaveLength(1);
    // White: all 5 games are the line, so line = baseline, no drop
    expect(problemLinesOf('white', xs).lines).toEqual([]);
  });
});

describe('get_problem_lines', () => {
  let app: TestApp;
  afterEach(() => app.close());

  test('reads the owner’s online games with moves, leaves over-the-board out, ranks by struggle index', async () => {
    app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
    const { user, token } = app.addUser();
    const at = (i: number) => new Date(Date.parse('2026-10-01T00:00:00Z') + i * 3_600_000).toISOString();
    let i = 0;
    const row = (sanMoves: string, result: 'win' | 'draw' | 'loss', colour: 'white' | 'black', provider: 'siteA' | 'fed' = 'siteA') =>
      gameRow(user.id, { playedAt: at(i++), sanMoves, movesSource: 'pgn', result, colour, provider, movesCount: 3 });
    const ids = addGames(app.deps.store, app.clock, [
      // White: 5 Ruy losses + 5 QGD wins → drop 50 over 5: SI 116.10
      ...Array.from({ length: 5 }, () => row(RUY, 'loss', 'white')),
      ...Array.from({ length: 5 }, () => row(QGD, 'win', 'white')),
      // Black: 6 Sicilian games 1 D 5 L (8.3 %) + 6 French wins: baseline 6.5 / 12 = 54.2 %; drop 45.8 over 6: SI 45.83 × 2.585 = 118.48
      row('e4 c5 Nf3 d6 d4 cxd4', 'draw', 'black'),
      ...Array.from({ length: 5 }, () => row('e4 c5 Nf3 d6 d4 cxd4', 'loss', 'black')),
      ...Array.from({ length: 6 }, () => row('e4 e6 d4 d5 Nc3 Nf6', 'win', 'black')),
      // Over the board with a typed-in line: ignored, else the Ruy line would have 8 games
      ...Array.from({ length: 3 }, () => row(RUY, 'loss', 'white', 'fed')),
    ]);
    const other = app.addUser();
    addGames(app.deps.store, app.clock, Array.from({ length: 5 }, () => gameRow(other.user.id, { playedAt: at(i++), sanMoves: QGD, result: 'loss' })));
    const out = await app.call(getProblemLines, {}, token);
    expect(out.status).toBe(200);
    const r = ProblemLines.parse(out.body);
    expect(r.lines.map((l) => [l.colour, l.lineMoves, l.games, l.score, l.baseline, l.drop, l.struggleIndex])).toEqual([
      ['black', 'e4 c5 Nf3 d6 d4 cxd4', 6, 8.3, 54.2, 45.8, 118.48],
      ['white', RUY, 5, 0, 50, 50, 116.1],
    ]);
    // Examples are the most recent first: the 5th Ruy game was inserted last of the five
    expect(r.lines[1].exampleGameIds).toEqual([ids[4], ids[3], ids[2], ids[1], ids[0]]);
    expect(r.baselines.white).toMatchObject({ games: 10, win: 5, loss: 5, score: 50 });
    expect(r.baselines.black).toMatchObject({ games: 12, win: 6, draw: 1, loss: 5 });
  });
});
