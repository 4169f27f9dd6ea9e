/**
 * The order lichess's fishnet client searches a game in (facts read from lichess-org/fishnet, GPL, no code taken:
 * src/queue.rs `IncomingBatch::from_acquired`, src/ipc.rs `Chunk`, src/api.rs `NodeLimit`). Pure: which positions,
 * in which chunks, at what budget; src/engine/fishnetSearch.ts runs them on an engine.
 */

/** fishnet's `Chunk::MAX_POSITIONS`: positions per chunk, overlap included. */
export const FISHNET_CHUNK_POSITIONS = 6;

/**
 * The nodes each search gets from the job's limit: fishnet's `NodeLimit::get` scales it by 6/7 (integer
 * division), for the overlap positions a game's chunks add: 1,000,000 → `go nodes 857142`.
 */
export function fishnetNodeLimit(asked: number): number {
  return Math.floor((asked * FISHNET_CHUNK_POSITIONS) / (FISHNET_CHUNK_POSITIONS + 1));
}

/** One search of a chunk: the game position `index` (0 is the start); `record` false for the overlap or warm-up. */
export interface ChunkSearch {
  index: number;
  record: boolean;
}

/** The chunks a game of `positions` positions (moves + 1) is searched in, in order, skipping `skip`. */
export function fishnetChunks(positions: number, skip: ReadonlySet<number>): ChunkSearch[][] {
  const backwards = Array.from({ length: positions }, (_, i) => positions - 1 - i);
  const chunks: ChunkSearch[][] = [];
  for (let from = 0; from < backwards.length; from += FISHNET_CHUNK_POSITIONS - 1) {
    const chunk: ChunkSearch[] = [];
    for (let k = from; k < Math.min(from + FISHNET_CHUNK_POSITIONS - 1, backwards.length); k++) {
      const current = backwards[k];
      if (skip.has(current)) continue;
      // The position searched just before this one in the game's backward walk (the last one repeats itself).
      const prev = backwards[Math.max(0, k - 1)];
      if (chunk.length === 0 || skip.has(prev)) chunk.push({ index: prev, record: false });
      chunk.push({ index: current, record: true });
    }
    if (chunk.length > 0) chunks.push(chunk);
  }
  return chunks;
}
