import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { START_FEN } from '../../src/chess/pgn.js';
import { gamePositions } from '../../src/chess/positions.js';
import { boardAt, playUci } from '../../src/chess/replay.js';
import { fishnetSearch, InvalidJob, type FishnetPosition } from '../../src/engine/fishnetSearch.js';
import { UciEngine } from '../../src/engine/uciEngine.js';

const fake = fileURLToPath(new URL('../fixtures/uci/fishnet-log-engine.mjs', import.meta.url));
// 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5: 12 plies, 13 positions.
const RUY = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6', 'b5a4', 'g8f6', 'e1g1', 'f8e7', 'f1e1', 'b7b5'];

describe('fishnetSearch on a UCI engine that logs what it is sent', () => {
  let dir: string;
  let engines: UciEngine[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cfp-fishnet-'));
    process.env.FISHNET_LOG_ENGINE_LOG = join(dir, 'log');
  });
  afterEach(async () => {
    await Promise.all(engines.map((e) => e.quit()));
    engines = [];
    delete process.env.FISHNET_LOG_ENGINE_LOG;
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (n: number) => {
    engines = await Promise.all(Array.from({ length: n }, () => UciEngine.start({ path: fake, build: 'lite', threads: 1, hashMb: 16, multiPv: 1 })));
    return engines;
  };
  /** Per engine process: what it was told after its handshake, `new` for ucinewgame and k for a position k plies in. */
  const commands = () => {
    const byPid = new Map<string, string[]>();
    for (const line of readFileSync(join(dir, 'log'), 'utf8').trim().split('\n')) {
      const [pid, ...rest] = line.split(' ');
      const cmd = rest.join(' ');
      const list = byPid.get(pid) ?? [];
      byPid.set(pid, list);
      if (cmd === 'ucinewgame') list.push('new');
      else if (cmd.startsWith('position ')) list.push(String(cmd.split(' moves ')[1]?.split(' ').length ?? 0));
      else if (cmd.startsWith('go')) expect(cmd).toBe('go nodes 857142');
    }
    return [...byPid.values()];
  };

  test('one engine: backwards, ucinewgame per chunk, the history sent, skipped positions unsearched except as warm-ups', async () => {
    const [engine] = await start(1);
    const order: number[] = [];
    const results = await fishnetSearch([engine], { startFen: START_FEN, moves: RUY, nodeLimit: 1_000_000, skip: [5, 0] }, {
      searchTimeoutMs: 10_000,
      onPosition: (p) => order.push(p.index),
    });
    expect(commands()).toEqual([
      ['new', '12', '12', '11', '10', '9', '8', 'new', '8', '7', '6', '5', '4', '3', 'new', '3', '2', '1'],
    ]);
    expect(order).toEqual([12, 11, 10, 9, 8, 7, 6, 4, 3, 2, 1]);
    expect(results.map((r) => r === null)).toEqual([true, false, false, false, false, true, false, false, false, false, false, false, false]);
    const fens = gamePositions(START_FEN, RUY).map((p) => p.fen);
    for (const r of results.filter((x): x is FishnetPosition => x !== null)) {
      // The fixture's reading, by hand: the last exact line (depth 2: cp 10k+1), not the later lowerbound (cp 999);
      // nodes and time the last reported (30, 3), nps the last given (2000).
      expect(r).toMatchObject({ score: { cp: 10 * r.index + 1, mate: null }, depth: 2, nodes: 30, time: 3, nps: 2000 });
      expect(r.pv).toHaveLength(2);
      const board = boardAt(fens[r.index])!;
      expect(r.pv.every((m) => playUci(board, m) !== null)).toBe(true);
    }
  });

  test("two engines share a game's chunks; each chunk starts with ucinewgame; the results are the same", async () => {
    const two = await start(2);
    const results = await fishnetSearch(two, { startFen: START_FEN, moves: RUY, nodeLimit: 1_000_000, skip: [] }, { searchTimeoutMs: 10_000 });
    const perEngine = commands();
    expect(perEngine.length).toBe(2);
    const chunks = perEngine.flatMap((list) => list.join(' ').split('new').map((c) => c.trim()).filter(Boolean));
    expect(chunks.sort()).toEqual(['12 12 11 10 9 8', '3 2 1 0', '8 7 6 5 4 3'].sort());
    expect(results.map((r) => r?.score.cp)).toEqual(Array.from({ length: 13 }, (_, i) => 10 * i + 1));
  });

  test('an illegal move is refused before anything is searched', async () => {
    const [engine] = await start(1);
    const search = fishnetSearch([engine], { startFen: START_FEN, moves: ['e2e4', 'e2e4'], nodeLimit: 1000, skip: [] }, { searchTimeoutMs: 10_000 });
    await expect(search).rejects.toThrow(InvalidJob);
    await expect(search).rejects.toThrow(/move 2 \(e2e4\) is not legal/);
    expect(commands().flat()).toEqual([]);
  });
});

describe('fishnetSearch on the bundled engine (lite build, tiny budget)', () => {
  let engine: UciEngine | null = null;
  afterEach(async () => engine?.quit());

  test("fool's mate: legal PVs, the mate in one found, the final mate reported as depth 0 mate 0, the skipped position left out", async () => {
    engine = await UciEngine.start({ path: null, build: 'lite', threads: 1, hashMb: 16, multiPv: 1 });
    const moves = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];
    const results = await fishnetSearch([engine], { startFen: START_FEN, moves, nodeLimit: 2000, skip: [1] }, { searchTimeoutMs: 60_000 });
    expect(results[1]).toBeNull();
    // After 2.g4 Black mates in one with Qh4#: the engine's number is the rule's, whatever its build.
    expect(results[3]).toMatchObject({ score: { cp: null, mate: 1 } });
    expect(results[3]!.pv[0]).toBe('d8h4');
    expect(results[4]).toMatchObject({ pv: [], score: { cp: null, mate: 0 }, depth: 0 });
    const fens = gamePositions(START_FEN, moves).map((p) => p.fen);
    for (const i of [0, 2, 3]) {
      const r = results[i]!;
      expect(r.pv.length).toBeGreaterThan(0);
      const board = boardAt(fens[i])!;
      expect(r.pv.every((m) => playUci(board, m) !== null)).toBe(true);
      expect(r.nodes).toBeGreaterThan(0);
    }
  }, 60_000);
});
