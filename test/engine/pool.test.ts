import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { START_FEN } from '../../src/chess/pgn.js';
import { EnginePool } from '../../src/engine/pool.js';

const crashing = fileURLToPath(new URL('../fixtures/uci/crashing-engine.mjs', import.meta.url));
let pool: EnginePool | null = null;
afterEach(async () => pool?.close());

describe('EnginePool', () => {
  test('an engine that dies on every search: restarted, retried once, then the review fails naming why', async () => {
    pool = new EnginePool({ path: crashing, build: 'lite', threads: 1, hashMb: 16, multiPv: 2, size: 1, nodesPerPosition: 1000 });
    await expect(pool.analyse(START_FEN, ['e2e4'], () => 'now')).rejects.toThrow(
      /position 0 failed twice \(engine process exited \(code 3\); then engine process exited \(code 3\)\)/,
    );
  });

  test('the bundled engine: one stored position per ply plus the start, split over two processes', async () => {
    pool = new EnginePool({ path: null, build: 'lite', threads: 1, hashMb: 16, multiPv: 2, size: 2, nodesPerPosition: 2000 });
    const moves = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5'];
    const a = await pool.analyse(START_FEN, moves, () => '2026-11-20T12:00:00.000Z');
    expect(a.positions.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(a.movesUci).toEqual(moves);
    // Stockfish 19's lite build embeds nn-61e7af4bb97d.nnue (`option name EvalFile … default`).
    expect(a.engine).toEqual({ name: 'Stockfish', version: '19 Lite WASM', build: 'lite', network: 'nn-61e7af4bb97d.nnue' });
    for (const p of a.positions) {
      expect(p.lines.length).toBe(2);
      expect(p.lines[0].pv.length).toBeGreaterThan(0);
      expect(p.nodes).toBeGreaterThanOrEqual(2000);
    }
    // After 1.e4 Black is to move: every line's first move is a Black move from the 7th or 8th rank.
    expect(a.positions[1].lines.every((l) => /^[a-h][78]/.test(l.pv[0]))).toBe(true);
  }, 60_000);
});
