import type { StoredAnalysis, StoredPosition } from '../chess/engineOutput.js';
import { gamePositions } from '../chess/positions.js';
import { EngineFailure, UciEngine, type EngineSpec } from './uciEngine.js';

export interface PoolOptions extends EngineSpec {
  /** Engine processes; one game's positions are split across all of them. */
  size: number;
  nodesPerPosition: number;
}

/** What reviews a move sequence: the engine pool in production; tests may pass their own. */
export interface Analyser {
  analyse(startFen: string, movesUci: readonly string[], now: () => string): Promise<StoredAnalysis>;
  close(): Promise<void>;
}

/** Generous: the slowest machine we expect searches 100k nodes/s, plus start-up. */
function searchTimeoutMs(nodes: number): number {
  return 30_000 + (nodes / 100_000) * 1000 * 4;
}

/**
 * A pool of UCI engine processes. A game is split into contiguous chunks, one per engine, so each
 * engine walks neighbouring positions and keeps its hash (the previous position's search seeds the next).
 * Each chunk starts with `ucinewgame`. A crashed or silent engine is restarted and the position retried
 * once; a second failure fails the whole review with the reason.
 */
export class EnginePool implements Analyser {
  private engines: Array<UciEngine | null>;
  private busy = false;
  private closed = false;

  constructor(private readonly opts: PoolOptions) {
    this.engines = Array.from({ length: Math.max(1, opts.size) }, () => null);
  }

  private async engineAt(i: number): Promise<UciEngine> {
    if (this.closed) throw new EngineFailure('the engine pool is closed');
    const e = this.engines[i];
    if (e && e.alive) return e;
    const started = await UciEngine.start(this.opts);
    if (this.closed) {
      // Closed while this one was starting: close() could not reach it.
      started.kill();
      throw new EngineFailure('the engine pool is closed');
    }
    this.engines[i] = started;
    return started;
  }

  private async restart(i: number): Promise<UciEngine> {
    this.engines[i]?.kill();
    this.engines[i] = null;
    return this.engineAt(i);
  }

  async analyse(startFen: string, movesUci: readonly string[], now: () => string): Promise<StoredAnalysis> {
    if (this.busy) throw new Error('the engine pool reviews one game at a time');
    this.busy = true;
    try {
      const positions = gamePositions(startFen, movesUci);
      const stored: StoredPosition[] = new Array(positions.length);
      const searchable = positions.filter((p) => !p.terminal);
      for (const p of positions.filter((q) => q.terminal)) {
        stored[p.index] = { index: p.index, fen: p.fen, lines: [], terminal: p.terminal, depth: 0, nodes: 0 };
      }
      const chunks = Math.min(this.engines.length, Math.max(1, searchable.length));
      const per = Math.ceil(searchable.length / chunks);
      await Promise.all(
        Array.from({ length: chunks }, async (_, c) => {
          const mine = searchable.slice(c * per, (c + 1) * per);
          if (mine.length === 0) return;
          let engine = await this.engineAt(c);
          await engine.newGame();
          for (const p of mine) {
            const position = `fen ${startFen}${p.index > 0 ? ` moves ${movesUci.slice(0, p.index).join(' ')}` : ''}`;
            let result;
            try {
              result = await engine.search(position, this.opts.nodesPerPosition, searchTimeoutMs(this.opts.nodesPerPosition));
            } catch (first) {
              engine = await this.restart(c);
              await engine.newGame();
              try {
                result = await engine.search(position, this.opts.nodesPerPosition, searchTimeoutMs(this.opts.nodesPerPosition));
              } catch (second) {
                const reason = second instanceof Error ? second.message : String(second);
                const before = first instanceof Error ? first.message : String(first);
                throw new EngineFailure(`position ${p.index} failed twice (${before}; then ${reason})`);
              }
            }
            if (result.lines.length === 0) {
              throw new EngineFailure(`position ${p.index}: the engine returned no line (bestmove ${result.bestMove ?? '(none)'})`);
            }
            stored[p.index] = { index: p.index, fen: p.fen, lines: result.lines, terminal: null, depth: result.depth, nodes: result.nodes };
          }
        }),
      );
      const id = this.engines.find((e) => e)?.id ?? { name: 'unknown', version: 'unknown' };
      return {
        engine: id,
        budget: { nodesPerPosition: this.opts.nodesPerPosition, multiPv: this.opts.multiPv },
        startFen,
        movesUci: [...movesUci],
        positions: stored,
        analysedAt: now(),
      };
    } finally {
      this.busy = false;
    }
  }

  /** CPU seconds used by the live engine processes (null when unknown). For benchmarks. */
  cpuSeconds(): number | null {
    const each = this.engines.filter((e): e is UciEngine => e !== null).map((e) => e.cpuSeconds());
    return each.some((c) => c === null) ? null : each.reduce<number>((a, c) => a + (c ?? 0), 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.engines.map((e) => e?.quit()));
    this.engines = this.engines.map(() => null);
  }
}
