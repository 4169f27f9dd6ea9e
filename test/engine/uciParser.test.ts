import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseSearches, parseUciLine, SearchCollector } from '../../src/engine/uciParser.js';
import { splitEngineId } from '../../src/engine/uciEngine.js';

// Real output of `node node_modules/stockfish/bin/stockfish-19-lite-single.js` for:
// uci, isready, setoption MultiPV 2, ucinewgame, then four searches (see the fixture for the lines).
const session = readFileSync(new URL('../fixtures/uci/stockfish-19-lite-session.txt', import.meta.url), 'utf8');

describe('parseUciLine', () => {
  test.each([
    ['id name Stockfish 19 Lite WASM', { kind: 'id', field: 'name', value: 'Stockfish 19 Lite WASM' }],
    ['uciok', { kind: 'uciok' }],
    ['readyok', { kind: 'readyok' }],
    ['bestmove g1f3 ponder b8c6', { kind: 'bestmove', move: 'g1f3', ponder: 'b8c6' }],
    ['bestmove (none)', { kind: 'bestmove', move: null, ponder: null }],
    ['info string NNUE evaluation using nn-61e7af4bb97d.nnue', { kind: 'other', text: 'info string NNUE evaluation using nn-61e7af4bb97d.nnue' }],
  ])('%s', (line, expected) => {
    expect(parseUciLine(line)).toEqual(expected);
  });

  test('an info line with every field', () => {
    const msg = parseUciLine('info depth 9 seldepth 14 multipv 2 score cp -30 nodes 10395 nps 118125 hashfull 2 time 88 pv g1f3 b8c6');
    expect(msg).toEqual({
      kind: 'info',
      info: { depth: 9, seldepth: 14, multiPv: 2, score: { cp: -30, mate: null }, bound: null, nodes: 10395, time: 88, nps: 118125, pv: ['g1f3', 'b8c6'] },
    });
  });

  test('mate scores and bounds', () => {
    const mate = parseUciLine('info depth 3 seldepth 2 multipv 1 score mate -2 nodes 208 nps 208000 time 1 pv d1d8');
    expect(mate.kind === 'info' && mate.info.score).toEqual({ cp: null, mate: -2 });
    const upper = parseUciLine('info depth 10 seldepth 18 multipv 1 score cp 28 upperbound nodes 20011 nps 183587 hashfull 7 time 109 pv g1f3 b8c6');
    expect(upper.kind === 'info' && upper.info).toMatchObject({ bound: 'upper', score: { cp: 28, mate: null }, nodes: 20011 });
    const lower = parseUciLine('info depth 12 multipv 1 score cp 40 lowerbound wdl 100 800 100 nodes 5 pv e2e4');
    expect(lower.kind === 'info' && lower.info).toMatchObject({ bound: 'lower', nodes: 5, pv: ['e2e4'] });
  });
});

describe('searches in saved Stockfish output', () => {
  const { name, searches } = parseSearches(session);

  test('engine id', () => {
    expect(name).toBe('Stockfish 19 Lite WASM');
    expect(splitEngineId(name!)).toEqual({ name: 'Stockfish', version: '19 Lite WASM' });
    expect(searches).toHaveLength(4);
  });

  test('1.e4 e5, 20,000 nodes, MultiPV 2: the final upperbound line is not taken as the score', () => {
    const s = searches[0];
    expect(s.bestMove).toBe('g1f3');
    // Last exact lines: depth 9 multipv 1 "cp 30 … pv g1f3 b8c6 b1c3 …" and depth 9 multipv 2 "cp 30 … pv b1c3 …";
    // the depth 10 "cp 28 upperbound" line is a bound, not a value.
    expect(s.lines.map((l) => [l.multiPv, l.score, l.pv[0], l.depth])).toEqual([
      [1, { cp: 30, mate: null }, 'g1f3', 9],
      [2, { cp: 30, mate: null }, 'b1c3', 9],
    ]);
    expect(s.nodes).toBe(20011);
    expect(s.terminalScore).toBeNull();
  });

  test('back-rank mate in one: mate 1 first, the rook retreat second', () => {
    const s = searches[1];
    expect(s.bestMove).toBe('d1d8');
    expect(s.lines[0]).toMatchObject({ score: { cp: null, mate: 1 }, pv: ['d1d8'], depth: 12 });
    expect(s.lines[1]).toMatchObject({ score: { cp: 611, mate: null }, pv: ['d1a1', 'g7g6', 'a1d1', 'g6g5', 'd1e1'], depth: 11 });
  });

  test('checkmated and stalemated positions: no line, the terminal score', () => {
    expect(searches[2]).toMatchObject({ bestMove: null, lines: [], terminalScore: { cp: null, mate: 0 } });
    expect(searches[3]).toMatchObject({ bestMove: null, lines: [], terminalScore: { cp: 0, mate: null } });
  });
});

describe('SearchCollector', () => {
  const info = (line: string) => {
    const m = parseUciLine(line);
    if (m.kind !== 'info') throw new Error('not info');
    return m.info;
  };
  test('a bound line that changed the best move is used for that move', () => {
    const c = new SearchCollector();
    c.push(info('info depth 8 multipv 1 score cp 20 nodes 100 pv e2e4 e7e5'));
    c.push(info('info depth 9 multipv 1 score cp 35 lowerbound nodes 200 pv d2d4 d7d5'));
    const r = c.finish('d2d4');
    expect(r.lines[0]).toMatchObject({ pv: ['d2d4', 'd7d5'], score: { cp: 35, mate: null }, depth: 9 });
  });
  test('a bound-only slot is kept rather than dropped', () => {
    const c = new SearchCollector();
    c.push(info('info depth 1 multipv 1 score cp 5 upperbound nodes 10 pv a2a3'));
    expect(c.finish('a2a3').lines).toHaveLength(1);
  });
});

describe('a budget that ends mid-iteration (real output, startpos, 3,000 nodes, MultiPV 2)', () => {
  const tail = [
    'info depth 5 seldepth 8 multipv 1 score cp 26 nodes 1848 nps 11846 hashfull 0 time 156 pv d2d4 g8f6 e2e3 d7d5 c2c4',
    'info depth 5 seldepth 9 multipv 2 score cp 17 nodes 1848 nps 11846 hashfull 0 time 156 pv e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4',
    'info depth 6 seldepth 15 multipv 1 score cp 23 nodes 3000 nps 18518 hashfull 0 time 162 pv e2e4 e7e5 g1f3 b8c6 b1c3 g8f6 d2d4 e5d4 f3d4 f8c5',
    'info depth 6 seldepth 8 multipv 2 score cp 20 upperbound nodes 3000 nps 18518 hashfull 0 time 162 pv d2d4 g8f6',
    'bestmove e2e4 ponder e7e5',
  ].join('\n');
  test('slot 2 moved to d2d4 on a bound line: both moves kept, in the final order', () => {
    const [s] = parseSearches(tail).searches;
    expect(s.lines.map((l) => [l.pv[0], l.score.cp, l.depth])).toEqual([
      ['e2e4', 23, 6],
      ['d2d4', 20, 6],
    ]);
  });
});
