import { afterEach, describe, expect, test } from 'vitest';
import { positionKey } from '../../src/chess/engineOutput.js';
import { gamePositions } from '../../src/chess/positions.js';
import { START_FEN } from '../../src/chess/pgn.js';
import { EnginePool, type PoolOptions } from '../../src/engine/pool.js';
import { OwnerPositionMemos } from '../../src/services/review/positionMemo.js';

const pools: EnginePool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});

// The lite build at a small budget: the reuse and its independence from order are under test, not strength.
const spec = (size: number): PoolOptions => ({ path: null, build: 'lite', threads: 1, hashMb: 16, multiPv: 2, size, nodesPerPosition: 3000 });
const pool = (size = 1) => {
  const p = new EnginePool(spec(size));
  pools.push(p);
  return p;
};
const now = () => '2026-11-26T00:00:00.000Z';

// Two move orders reaching the same positions: 1.e4 e5 2.Nf3 Nc6 and 1.Nf3 Nc6 2.e4 e5 share the
// start and the position after four plies (worked out by hand: same placement, White to move, KQkq, no en passant).
const A = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5'];
const B = ['g1f3', 'b8c6', 'e2e4', 'e7e5', 'f1c4'];

describe('each position searched once per owner', () => {
  test('the position key: placement, side, castling, en passant; the clock only from 80 on', () => {
    expect(positionKey('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1')).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    expect(positionKey('8/8/4k3/8/8/4K3/4P3/8 w - - 37 90')).toBe('8/8/4k3/8/8/4K3/4P3/8 w - - 0 1');
    expect(positionKey('8/8/4k3/8/8/4K3/4P3/8 w - - 85 120')).toBe('8/8/4k3/8/8/4K3/4P3/8 w - - 85 1');
    const a = gamePositions(START_FEN, A).map((p) => positionKey(p.fen));
    const b = gamePositions(START_FEN, B).map((p) => positionKey(p.fen));
    expect(a[4]).toBe(b[4]);
    expect(a[0]).toBe(b[0]);
  });

  test('a position met in two games is searched once, and its result does not depend on the game order', async () => {
    const first = pool();
    const memo = new OwnerPositionMemos().for('owner');
    const a1 = await first.analyse(START_FEN, A, now, { memo });
    const b1 = await first.analyse(START_FEN, B, now, { memo });
    // 6 positions each, 2 shared (start and after ply 4): 10 searches, 2 reused.
    expect(first.counts).toEqual({ searched: 10, reused: 2, deeper: 0 });
    expect(b1.positions[4].lines).toEqual(a1.positions[4].lines);

    const second = pool();
    const memo2 = new OwnerPositionMemos().for('owner');
    const b2 = await second.analyse(START_FEN, B, now, { memo: memo2 });
    const a2 = await second.analyse(START_FEN, A, now, { memo: memo2 });
    expect(second.counts).toEqual({ searched: 10, reused: 2, deeper: 0 });
    expect(a2.positions).toEqual(a1.positions);
    expect(b2.positions).toEqual(b1.positions);
  }, 90_000);

  test('a review is reproduced exactly from its recorded settings, however many engines split it', async () => {
    const one = await pool(1).analyse(START_FEN, A, now);
    const two = await pool(2).analyse(START_FEN, A, now);
    expect(one.budget).toEqual({ nodesPerPosition: 3000, multiPv: 2, search: 'position' });
    expect(two).toEqual(one);
  }, 90_000);

  test('memos are per owner: one owner\'s searches are never another\'s', async () => {
    const p = pool();
    const memos = new OwnerPositionMemos();
    await p.analyse(START_FEN, A, now, { memo: memos.for('owner-a') });
    await p.analyse(START_FEN, A, now, { memo: memos.for('owner-b') });
    expect(p.counts).toEqual({ searched: 12, reused: 0, deeper: 0 });
    await p.analyse(START_FEN, A, now, { memo: memos.for('owner-a') });
    expect(p.counts).toEqual({ searched: 12, reused: 6, deeper: 0 });
  }, 90_000);
});
