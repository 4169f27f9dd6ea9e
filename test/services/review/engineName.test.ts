import { describe, expect, test } from 'vitest';
import { reviewEngineLabel, workerEngineName } from '../../../src/services/review/engineName.js';

// Issue 45 item 8: a worker's review credited the engine as the worker's User-Agent
// ("chess-footprint-worker-linux-x64/0.1.0 (Stockfish 19 WASM; nn-1a298aa575a0.nnue) nnue").
describe('the engine a review names', () => {
  test("this project's worker: the engine in its User-Agent, its build in parentheses, on the key's machine", () => {
    const ua = 'chess-footprint-worker-linux-x64/0.1.0 (Stockfish 19 WASM; nn-1a298aa575a0.nnue)';
    expect(workerEngineName(ua)).toBe('Stockfish 19 (WASM)');
    expect(reviewEngineLabel({ engine: { name: ua, version: 'nnue', network: null }, worker: { key: 'laptop', userAgent: ua, flavor: 'nnue' } })).toBe('Stockfish 19 (WASM) on laptop');
    expect(workerEngineName('chess-footprint-worker-darwin-arm64/0.1.0 (Stockfish 17.1)')).toBe('Stockfish 17.1');
  });

  test("lichess's fishnet client names only itself: Stockfish, with the client's version", () => {
    expect(workerEngineName('fishnet-x86_64-unknown-linux-musl/2.9.4')).toBe('Stockfish (fishnet 2.9.4)');
    expect(workerEngineName('curl/8.0')).toBe('Stockfish (a review worker)');
  });

  test('a local review keeps its identity', () => {
    expect(reviewEngineLabel({ engine: { name: 'Stockfish', version: '19 WASM', build: 'full', network: 'nn-1a298aa575a0.nnue' } })).toBe('Stockfish 19 WASM, full build, nn-1a298aa575a0.nnue');
  });
});
