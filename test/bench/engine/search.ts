import { accessSync, closeSync, constants, openSync, readSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { EngineIdentity, EngineLine } from '../../../schemas/engine.js';
import { UciEngine, type EngineSpec } from '../../../src/engine/uciEngine.js';
import { positionArg, type Stretch } from './positions.js';

/** One searched position, as the review stores it (lines best first). */
export interface SearchedPosition {
  depth: number;
  nodes: number;
  lines: EngineLine[];
}

export interface StretchSearch {
  engine: EngineIdentity;
  /** Per stretch, per position. */
  results: SearchedPosition[][];
  /** CPU seconds of all engine processes, and the largest peak RSS of one process (null off Linux). */
  cpuSeconds: number | null;
  peakRssBytes: number | null;
  wallSeconds: number;
}

/**
 * Searches every position of the stretches for a fixed node budget the way the review pool does:
 * one engine per process slot, `ucinewgame` at the start of each stretch, then its positions in order
 * (so the hash carries from one position to the next), history sent as moves. Stretches are dealt
 * round-robin to `processes` engines.
 */
export async function searchStretches(spec: EngineSpec, stretches: Stretch[], nodes: number, processes: number): Promise<StretchSearch> {
  const results: SearchedPosition[][] = stretches.map(() => []);
  const started = performance.now();
  const engines = await Promise.all(Array.from({ length: processes }, () => UciEngine.start(spec)));
  try {
    await Promise.all(
      engines.map(async (engine, slot) => {
        for (let s = slot; s < stretches.length; s += processes) {
          await engine.newGame();
          for (let k = 0; k < stretches[s].fens.length; k += 1) {
            const r = await engine.search(positionArg(stretches[s], k), nodes, 30 * 60_000);
            results[s].push({ depth: r.depth, nodes: r.nodes, lines: r.lines });
          }
        }
      }),
    );
    const cpu = engines.map((e) => e.cpuSeconds());
    const rss = engines.map((e) => e.peakRssBytes());
    return {
      engine: { ...engines[0].id, build: engines[0].kind, network: engines[0].network },
      results,
      cpuSeconds: cpu.some((c) => c === null) ? null : cpu.reduce<number>((a, c) => a + (c ?? 0), 0),
      peakRssBytes: rss.some((r) => r === null) ? null : Math.max(...(rss as number[])),
      wallSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await Promise.all(engines.map((e) => e.quit()));
  }
}

function isNativeExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    // npm scripts put the `stockfish` package's WASM launcher (a `#!` node script) on PATH as
    // node_modules/.bin/stockfish: that is one of the builds under test, not the reference.
    const fd = openSync(p, 'r');
    const head = Buffer.alloc(2);
    readSync(fd, head, 0, 2, 0);
    closeSync(fd);
    return head.toString('latin1') !== '#!';
  } catch {
    return false;
  }
}

/**
 * The native reference engine: CFP_REFERENCE_ENGINE when set, else a native `stockfish` on PATH or in
 * /usr/games (where Debian's package puts it, off most users' PATH). Null when there is none.
 */
export function referenceEnginePath(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CFP_REFERENCE_ENGINE) return isNativeExecutable(env.CFP_REFERENCE_ENGINE) ? env.CFP_REFERENCE_ENGINE : null;
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/games'];
  return dirs.map((d) => join(d, 'stockfish')).find(isNativeExecutable) ?? null;
}
