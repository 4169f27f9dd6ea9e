import { createRequire } from 'node:module';
import { ENGINE_BUILDS, type EngineBuild, type EngineIdentity, type EngineKind } from '../chess/engineOutput.js';

/**
 * Which Stockfish a review runs, resolved in one place.
 *
 * The npm `stockfish` package (v19) ships two single-threaded WASM builds that run under node without
 * SharedArrayBuffer: `full` (the standard big network, ~99 MB .wasm) and `lite` (a small network,
 * ~1.8 MB). A native UCI binary (`--engine PATH` or CFP_STOCKFISH) always wins over either.
 * The default is chosen by measurement: `npm run bench engine`, decision and figures in docs/engine.md
 * ("Choosing the bundled build").
 */
export { ENGINE_BUILDS, type EngineBuild, type EngineKind };

/** See docs/engine.md, "Choosing the bundled build", for the measurement behind it. */
export const DEFAULT_ENGINE_BUILD: EngineBuild = 'full';

const BUILD_SCRIPTS: Record<EngineBuild, string> = {
  full: 'stockfish/bin/stockfish-19-single.js',
  lite: 'stockfish/bin/stockfish-19-lite-single.js',
};

export interface EngineChoice {
  /** A native UCI binary; when null the bundled `build` runs under node. */
  path: string | null;
  build: EngineBuild;
}

export interface EngineCommand {
  command: string;
  args: string[];
  kind: EngineKind;
  /** A JavaScript engine build named by path (a Stockfish `.js` from npm), run under node; absent otherwise. */
  script?: true;
}

/** A path naming a JavaScript engine build rather than a binary: node runs it. */
const SCRIPT = /\.(c|m)?js$/i;

/**
 * How long a starting engine may take to answer `uci` and `isready`. The full build compiles a 99 MB
 * WebAssembly module first: ~4 CPU-seconds, measured 36 s wall on a 2-core machine at load 20.
 */
export function startTimeoutMs(kind: EngineKind, script = false): number {
  // A script build may compile a network as large as the full build's before it answers.
  return kind === 'full' || script ? 120_000 : 30_000;
}

export function bundledEnginePath(build: EngineBuild): string {
  return createRequire(import.meta.url).resolve(BUILD_SCRIPTS[build]);
}

/**
 * The process to spawn for a choice: the native binary as is, a `.js` build under this node (kind `native`:
 * it is not one of the bundled builds; the engine's own `id name` says what it is), or node running the bundled build.
 */
export function engineCommand(choice: EngineChoice): EngineCommand {
  if (choice.path && SCRIPT.test(choice.path)) return { command: process.execPath, args: [choice.path], kind: 'native', script: true };
  if (choice.path) return { command: choice.path, args: [], kind: 'native' };
  return { command: process.execPath, args: [bundledEnginePath(choice.build)], kind: choice.build };
}

/**
 * How a review names its engine: `Stockfish 19 WASM, full build, nn-1a298aa575a0.nnue`. Reviews stored
 * before builds were recorded carry name and version only, and are named just so (still valid).
 */
export function engineLabel(engine: EngineIdentity): string {
  const build = engine.build === 'native' ? 'native' : engine.build ? `${engine.build} build` : null;
  return [`${engine.name} ${engine.version}`, build, engine.network].filter(Boolean).join(', ');
}
