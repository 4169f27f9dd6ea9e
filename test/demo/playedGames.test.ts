import { readFileSync } from 'node:fs';
import { Chess } from 'chess.js';
import { describe, expect, test } from 'vitest';
import { pgnTag } from '../../src/chess/pgn.js';
import { playSan } from '../../src/chess/sanReplay.js';
import { playedGameDrawer, readPlayedGames, type PlayedGames } from '../../src/demo/playedGames.js';
import { seedDemo } from '../../src/demo/index.js';
import { games } from '../../src/store/schema/index.js';
import { makeTestApp } from '../helpers/app.js';
import { parseExport } from '../helpers/lichessExport.js';
import { meanMoveShape, moveShape } from '../helpers/moveShape.js';

// Issue 45 item 11: the demo's games are engine games at club strengths shipped in data/demo/games.json.gz; they
// must look like club games (two move shapes against the shared lichess games) and end as their boards say.

const lichess = parseExport(readFileSync(new URL('../fixtures/lichess-analysed/games.ndjson', import.meta.url), 'utf8')).map((g) => g.moves.split(' '));
const shipped = readPlayedGames();
const shippedGames = shipped.lines.flatMap((l) => l.games.map((g) => ({ ...g, moves: [...l.moves.split(' '), ...g.san.split(' ').filter(Boolean)] })));

describe('move shapes', () => {
  test('counted by hand on short games', () => {
    // 2.Ke2 and 2…Ke7 with both queens on; 3.Ng1 and 3…Ng8 go home.
    expect(moveShape(['e4', 'e5', 'Ke2', 'Ke7', 'Nf3', 'Nf6', 'Ng1', 'Ng8'])).toEqual({ kingMovesQueensOn: 2, minorsHome: 2 });
    // Castling is no king move; 6.Bf1 takes the bishop home.
    expect(moveShape(['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'O-O', 'Nf6', 'Re1', 'd6', 'Bf1'])).toEqual({ kingMovesQueensOn: 0, minorsHome: 1 });
    // 5.Kd1 comes after the queens are off.
    expect(moveShape(['e4', 'e5', 'd4', 'exd4', 'Qxd4', 'Qf6', 'Qxf6', 'Nxf6', 'Kd1'])).toEqual({ kingMovesQueensOn: 0, minorsHome: 0 });
  });

  test('the 40 shared lichess games: 0.90 king moves with queens on in moves 1-20 and 0.15 minor pieces home, per game (issue 45)', () => {
    expect(lichess).toHaveLength(40);
    const real = meanMoveShape(lichess);
    expect(real.kingMovesQueensOn).toBeCloseTo(0.9, 10);
    expect(real.minorsHome).toBeCloseTo(0.15, 10);
  });

  test('the shipped demo games make each at most 1.25 times as often as the lichess games', () => {
    const real = meanMoveShape(lichess);
    const demo = meanMoveShape(shippedGames.map((g) => g.moves));
    expect(shippedGames.length).toBeGreaterThan(500);
    expect(demo.kingMovesQueensOn).toBeLessThanOrEqual(1.25 * real.kingMovesQueensOn);
    expect(demo.minorsHome).toBeLessThanOrEqual(1.25 * real.minorsHome);
  });
});

describe('the shipped games end as their boards say', () => {
  test('every game replays, and each rule ending is on its board with the right result', () => {
    const counts: Record<string, number> = {};
    for (const g of shippedGames) {
      const board = new Chess();
      for (const m of g.moves) expect(typeof playSan(board, m)).toBe('object');
      counts[g.end] = (counts[g.end] ?? 0) + 1;
      const toMoveLoses = board.turn() === 'w' ? '0-1' : '1-0';
      if (g.end === 'mate') expect([board.isCheckmate(), g.result]).toEqual([true, toMoveLoses]);
      else expect(board.isCheckmate()).toBe(false);
      if (g.end === 'stalemate') expect([board.isStalemate(), g.result]).toEqual([true, '1/2-1/2']);
      if (g.end === 'repetition') expect([board.isThreefoldRepetition(), g.result]).toEqual([true, '1/2-1/2']);
      if (g.end === 'fifty') expect([board.isDrawByFiftyMoves(), g.result]).toEqual([true, '1/2-1/2']);
      if (g.end === 'material') expect([board.isInsufficientMaterial(), g.result]).toEqual([true, '1/2-1/2']);
      if (g.end === 'agreement') expect([board.isGameOver(), g.result]).toEqual([false, '1/2-1/2']);
      // A resignation or a flag: the side to move gives up or runs out of time, in a game still going on.
      if (g.end === 'resign' || g.end === 'time') expect([board.isGameOver(), g.result]).toEqual([false, toMoveLoses]);
    }
    // Most games are resigned, some mated, flagged or drawn, as club games end.
    expect(counts.resign).toBeGreaterThan(shippedGames.length / 2);
    expect(counts.mate).toBeGreaterThan(0);
    expect(counts.time).toBeGreaterThan(0);
    expect(counts.agreement).toBeGreaterThan(0);
  });
});

describe('drawing the shipped games', () => {
  const pool: PlayedGames = {
    made: { command: 'test', engine: 'test', settings: 'test' },
    lines: [
      {
        moves: 'e4 e5',
        games: [
          { w: 1500, b: 1500, san: 'Nf3 Nc6', result: '1-0', end: 'resign' },
          { w: 1800, b: 1800, san: 'Nc3 Nf6', result: '1-0', end: 'resign' },
          { w: 1500, b: 1500, san: 'Bc4 Bc5', result: '0-1', end: 'time' },
        ],
      },
    ],
  };

  test('the wanted result at the nearest rating, each game once, then another result, then again from the start', () => {
    const draw = playedGameDrawer(pool);
    // White at 1750 wanting a win: the 1800 game, then the 1500 one.
    expect(draw(['e4', 'e5'], 'white', 1750, '1-0').san).toEqual(['e4', 'e5', 'Nc3', 'Nf6']);
    expect(draw(['e4', 'e5'], 'white', 1750, '1-0').san).toEqual(['e4', 'e5', 'Nf3', 'Nc6']);
    // No White win is left: the unused game comes with its own result.
    expect(draw(['e4', 'e5'], 'white', 1750, '1-0')).toEqual({ san: ['e4', 'e5', 'Bc4', 'Bc5'], result: '0-1', end: 'time' });
    // All three used: the line starts over.
    expect(draw(['e4', 'e5'], 'white', 1750, '1-0').san).toEqual(['e4', 'e5', 'Nc3', 'Nf6']);
    expect(() => draw(['d4'], 'white', 1500, '1-0')).toThrow(/npm run demo:games/);
  });

  test('a seeded demo stores each game with the result and termination its moves have', async () => {
    const app = makeTestApp({ now: '2026-11-21T12:00:00Z' });
    try {
      await seedDemo(app.deps, { games: 60, seed: 5, log: () => {} });
      const rows = app.deps.store.db.select().from(games).all().filter((r) => r.movesSource === 'pgn');
      expect(rows.length).toBeGreaterThan(30);
      const texts = app.deps.store.sqlite.prepare('SELECT hash, text FROM pgns').all() as Array<{ hash: string; text: string }>;
      const pgnOf = new Map(texts.map((p) => [p.hash, p.text]));
      for (const r of rows) {
        const pgn = pgnOf.get(r.pgnHash!)!;
        const tag = pgnTag(pgn, 'Result');
        const own = tag === '1/2-1/2' ? 'draw' : (tag === '1-0') === (r.colour === 'white') ? 'win' : 'loss';
        expect(own).toBe(r.result);
        const board = new Chess();
        for (const m of r.sanMoves!.split(' ')) board.move(m);
        const termination = pgnTag(pgn, 'Termination')!;
        expect(termination.endsWith('won by checkmate')).toBe(board.isCheckmate());
        if (board.isCheckmate()) expect(tag).toBe(board.turn() === 'w' ? '0-1' : '1-0');
        if (tag === '1/2-1/2') expect(termination).toMatch(/^Game drawn by /);
        else expect(termination).toMatch(new RegExp(`^${pgnTag(pgn, tag === '1-0' ? 'White' : 'Black')} won (by checkmate|by resignation|on time)$`));
      }
    } finally {
      await app.close();
    }
  });
});
