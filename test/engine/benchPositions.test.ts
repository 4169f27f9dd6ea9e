import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { describe, expect, test } from 'vitest';
import { positionPhase } from '../../src/chess/phase.js';
import { gamePositions } from '../../src/chess/positions.js';
import { viewBoard } from '../../src/chess/replay.js';
import { BUDGETS, REFERENCE_FACTOR } from '../bench/engine/budgets.js';
import { REFERENCE_FILE, type ReferenceFile } from '../bench/engine/makeReference.js';
import { loadPositionSet, selectStretches, STRETCH_POSITIONS } from '../bench/engine/positions.js';
import { referenceEnginePath } from '../bench/engine/search.js';
import { dataPath } from '../helpers/fixtures.js';

const set = loadPositionSet();

describe('the engine bench position set (test/fixtures/engine/review-positions.json)', () => {
  test('is what the rule picks from the library games today', () => {
    expect(set.stretches).toEqual(selectStretches(dataPath('library')));
  }, 180_000); // replays every library game: seconds on a quiet machine, minutes on a busy one

  test('at least 100 positions, middlegames and endgames, each stretch replaying from its game', () => {
    const positions = set.stretches.reduce((n, s) => n + s.fens.length, 0);
    expect(positions).toBeGreaterThanOrEqual(100);
    expect(set.stretches.filter((s) => s.phase === 'middlegame').length).toBe(5);
    expect(set.stretches.filter((s) => s.phase === 'endgame').length).toBe(5);
    for (const s of set.stretches) {
      expect(s.fens).toHaveLength(STRETCH_POSITIONS);
      const pgn = readFileSync(dataPath('library', s.slug, 'game.pgn'), 'utf8');
      expect(pgn.length).toBeGreaterThan(0);
      const replayed = gamePositions(s.startFen, s.movesUci).map((p) => p.fen);
      expect(replayed.slice(s.from)).toEqual(s.fens);
      for (const fen of s.fens) expect(positionPhase(viewBoard(fen)!)).toBe(s.phase);
    }
  });

  test('the cached reference (when present) answers every position with a legal best move, per budget', () => {
    const file = REFERENCE_FILE;
    if (!existsSync(file)) return;
    const ref = JSON.parse(readFileSync(file, 'utf8')) as ReferenceFile;
    const present = Object.keys(ref.searches).map(Number);
    expect(present.every((n) => BUDGETS.some((b) => b * REFERENCE_FACTOR === n))).toBe(true);
    for (const n of present) {
      const searched = ref.searches[String(n)];
      expect(searched.map((s) => s.length)).toEqual(set.stretches.map((s) => s.fens.length));
      searched.forEach((stretch, i) =>
        stretch.forEach((p, k) => {
          expect(p.nodes).toBeGreaterThanOrEqual(n);
          const best = p.lines[0].pv[0];
          const board = new Chess(set.stretches[i].fens[k]);
          expect(board.moves({ verbose: true }).some((m) => `${m.from}${m.to}${m.promotion ?? ''}` === best)).toBe(true);
        }),
      );
    }
  });
});

describe('referenceEnginePath', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-ref-'));
  const make = (sub: string, head: string) => {
    const d = join(dir, sub);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'stockfish'), head);
    chmodSync(join(d, 'stockfish'), 0o755);
    return d;
  };
  const script = make('node_modules/.bin', '#!/usr/bin/env node\n');
  const binary = make('bin', '\x7fELF fake');

  test('takes a native binary on PATH, never the npm package\'s node launcher', () => {
    expect(referenceEnginePath({ PATH: `${script}:${binary}` })).toBe(join(binary, 'stockfish'));
  });

  test('CFP_REFERENCE_ENGINE wins; a script or a missing file there means no reference', () => {
    expect(referenceEnginePath({ PATH: binary, CFP_REFERENCE_ENGINE: join(script, 'stockfish') })).toBeNull();
    expect(referenceEnginePath({ PATH: binary, CFP_REFERENCE_ENGINE: join(dir, 'nothing') })).toBeNull();
    expect(referenceEnginePath({ PATH: script, CFP_REFERENCE_ENGINE: join(binary, 'stockfish') })).toBe(join(binary, 'stockfish'));
  });
});
