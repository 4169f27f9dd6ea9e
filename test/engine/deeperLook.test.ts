import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { positionKey } from '../../src/chess/engineOutput.js';
import { DEEPER_MARGINS, type DeeperMargins } from '../../src/chess/deeperLook.js';
import { START_FEN } from '../../src/chess/pgn.js';
import { gamePositions } from '../../src/chess/positions.js';
import { EnginePool, type PoolOptions } from '../../src/engine/pool.js';

const tableEngine = fileURLToPath(new URL('../fixtures/uci/table-engine.mjs', import.meta.url));
const now = () => '2026-11-27T00:00:00.000Z';
const MOVES = ['e2e4', 'e7e5', 'g1f3'];
const margins: DeeperMargins = { judgment: 0.03, great: 4, mateCp: 500, moments: false };

let dir = '';
const pools: EnginePool[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cfp-deeper-'));
  const keys = gamePositions(START_FEN, MOVES).map((p) => positionKey(p.fen));
  // Side to move. Ply 1 (1.e4): White 0 → −55, a drop of wc(55) = 0.1009 in winning chances, within 0.03 of the
  // inaccuracy threshold 0.1. Plies 2 and 3 lose nothing (55 → 55). Deeper, 1.e4 concedes only 20 (drop 0.0368).
  const table = {
    [keys[0]]: { '*': [0, -1] },
    [keys[1]]: { '*': [55, 54], 300000: [20, 19] },
    [keys[2]]: { '*': [-55, -56] },
    [keys[3]]: { '*': [55, 54] },
  };
  writeFileSync(join(dir, 'table.json'), JSON.stringify(table));
  process.env.TABLE_ENGINE_TABLE = join(dir, 'table.json');
  process.env.TABLE_ENGINE_LOG = join(dir, 'searches.log');
});
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = (over: Partial<PoolOptions> = {}): PoolOptions => ({
  path: tableEngine,
  build: 'lite',
  threads: 1,
  hashMb: 16,
  multiPv: 2,
  size: 1,
  nodesPerPosition: 30000,
  deeper: { nodesPerPosition: 300000, margins },
  ...over,
});
const searches = () =>
  readFileSync(join(dir, 'searches.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => Number(l.split(' ')[0]));

describe('the deeper look in the engine pool', () => {
  test('the two positions of a ply near a threshold are searched again at the deeper budget; the others are not', async () => {
    writeFileSync(join(dir, 'searches.log'), '');
    const pool = new EnginePool(spec());
    pools.push(pool);
    const a = await pool.analyse(START_FEN, MOVES, now);
    // 4 first-pass searches at 30,000 nodes, then positions 0 and 1 at 300,000.
    expect(searches()).toEqual([30000, 30000, 30000, 30000, 300000, 300000]);
    expect(a.positions.map((p) => p.deeper ?? false)).toEqual([true, true, false, false]);
    expect(a.positions.map((p) => p.nodes)).toEqual([300000, 300000, 30000, 30000]);
    // The deeper result replaces the first: 1.e4 now concedes 20.
    expect(a.positions[1].lines.map((l) => l.score.cp)).toEqual([20, 19]);
    expect(pool.counts).toEqual({ searched: 6, reused: 0, deeper: 2 });
    // Recorded with the review, so it is reproduced from its settings.
    expect(a.budget).toEqual({ nodesPerPosition: 30000, multiPv: 2, search: 'position', deeper: { nodesPerPosition: 300000, margins } });
  });

  test('without a deeper look nothing is searched twice and nothing is recorded for it', async () => {
    writeFileSync(join(dir, 'searches.log'), '');
    const pool = new EnginePool(spec({ deeper: undefined }));
    pools.push(pool);
    const a = await pool.analyse(START_FEN, MOVES, now);
    expect(searches()).toEqual([30000, 30000, 30000, 30000]);
    expect(a.positions.some((p) => p.deeper)).toBe(false);
    expect(a.budget).toEqual({ nodesPerPosition: 30000, multiPv: 2, search: 'position' });
  });
});

describe("the deeper look reads the first pass on lichess's scale (src/chess/calibration.ts)", () => {
  // 1.e4 as above: White 0 → −55. With margin 0.01: raw, a drop of wc(55) = 0.1009, within 0.01 of 0.1 (searched
  // again); announced as the full build's network (× 0.84: −55 → −46), a drop of wc(46) = 0.0845, 0.0155 away (not).
  const tight: DeeperMargins = { judgment: 0.01, great: 0, mateCp: 0, moments: false };
  const moves = ['e2e4'];
  const run = async (network: string | null) => {
    writeFileSync(join(dir, 'searches.log'), '');
    if (network) process.env.TABLE_ENGINE_NETWORK = network;
    try {
      const pool = new EnginePool(spec({ deeper: { nodesPerPosition: 300000, margins: tight } }));
      pools.push(pool);
      const a = await pool.analyse(START_FEN, moves, now);
      return { searches: searches(), network: a.engine.network ?? null };
    } finally {
      delete process.env.TABLE_ENGINE_NETWORK;
    }
  };

  test('an engine of no measured network: the ply near the threshold raw is searched again', async () => {
    expect(await run(null)).toEqual({ searches: [30000, 30000, 300000, 300000], network: null });
  });

  test('the full build network: the same ply is 0.0155 from the threshold on lichess’s scale and is not', async () => {
    expect(await run('nn-1a298aa575a0.nnue')).toEqual({ searches: [30000, 30000], network: 'nn-1a298aa575a0.nnue' });
  });
});

describe('a review with a deeper look is reproduced exactly from its recorded settings (real engine)', () => {
  test('the lite build at 3,000 nodes with a 9,000-node deeper look: a second pool built from the recorded budget gives the same review', async () => {
    const first = new EnginePool({ path: null, build: 'lite', threads: 1, hashMb: 16, multiPv: 2, size: 1, nodesPerPosition: 3000, deeper: { nodesPerPosition: 9000, margins: DEEPER_MARGINS } });
    pools.push(first);
    const moves = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6', 'b5c6', 'd7c6'];
    const a = await first.analyse(START_FEN, moves, now);
    expect(a.budget.deeper).toEqual({ nodesPerPosition: 9000, margins: DEEPER_MARGINS });
    const b = a.budget;
    const again = new EnginePool({ path: null, build: a.engine.build as 'lite', threads: 1, hashMb: 16, multiPv: b.multiPv, size: 2, nodesPerPosition: b.nodesPerPosition, deeper: b.deeper });
    pools.push(again);
    expect(await again.analyse(START_FEN, moves, now)).toEqual(a);
    // Every position marked deeper was searched at the deeper budget's own result (nodes at least the first pass's).
    for (const p of a.positions.filter((q) => q.deeper)) expect(p.nodes).toBeGreaterThan(3000);
  }, 120_000);
});
