import { engineLabel } from '../../engine/builds.js';
import type { StoredAnalysis } from '../../chess/engineOutput.js';

/**
 * How a review names what searched it, in words a player reads (issue 45 item 8): the local engine by its
 * identity (src/engine/builds.ts engineLabel), a review worker's search as the engine its User-Agent names on
 * the machine its key is named for: "Stockfish 19 (WASM) on laptop", never the User-Agent itself.
 */
export function reviewEngineLabel(analysis: Pick<StoredAnalysis, 'engine' | 'worker'>): string {
  if (!analysis.worker) return engineLabel(analysis.engine);
  return `${workerEngineName(analysis.worker.userAgent)} on ${analysis.worker.key}`;
}

/**
 * The engine a worker's User-Agent names. This project's worker sends `chess-footprint-worker-<platform>/<version>
 * (<engine name and version>[; <network>])` (src/cli/worker/reviewWorker.ts workerUserAgent): the engine is the first
 * part in the parentheses, a build word after its version in parentheses ("Stockfish 19 WASM" → "Stockfish 19 (WASM)").
 * lichess's fishnet client sends `fishnet-<target>/<version>` and always runs Stockfish (lichess-org/fishnet README).
 */
export function workerEngineName(userAgent: string): string {
  const named = /\(\s*([^;)]*stockfish[^;)]*)/i.exec(userAgent)?.[1]?.trim();
  if (named) {
    const m = /^(stockfish\s+\d[\w.]*)\s+(.+)$/i.exec(named);
    return m ? `${m[1]} (${m[2]})` : named;
  }
  const fishnet = /^fishnet[^/\s]*\/(\d[\w.]*)/i.exec(userAgent);
  if (fishnet) return `Stockfish (fishnet ${fishnet[1]})`;
  return 'Stockfish (a review worker)';
}
