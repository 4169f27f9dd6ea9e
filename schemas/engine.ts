import { z } from 'zod';

/**
 * What one review stores: raw engine output per position, nothing derived.
 * Scores are as UCI reports them: from the side to move's point of view.
 */
export const EngineScore = z
  .object({
    cp: z.number().int().nullable().describe('Centipawns, side to move; null when a mate score'),
    mate: z.number().int().nullable().describe('Mate in N moves, side to move (negative: being mated); null for cp scores'),
  })
  .describe('A raw UCI score');

export const EngineLine = z.object({
  multiPv: z.number().int().min(1),
  score: EngineScore,
  pv: z.array(z.string()).describe('Principal variation in UCI'),
  depth: z.number().int(),
});

export const StoredPosition = z.object({
  /** Index into the game: position 0 is before ply 1; position N is after ply N. */
  index: z.number().int().min(0),
  fen: z.string(),
  /** MultiPV lines, best first; empty for a terminal position (see terminal). */
  lines: z.array(EngineLine),
  terminal: z.enum(['checkmate', 'stalemate', 'insufficient', 'draw']).nullable(),
  depth: z.number().int(),
  nodes: z.number().int(),
});

export const EngineIdentity = z
  .object({
    name: z.string(),
    version: z.string(),
    build: z
      .enum(['full', 'lite', 'native'])
      .optional()
      .describe("Bundled WASM build (full or lite network) or a native binary; absent on reviews stored before builds were recorded"),
    network: z.string().nullable().optional().describe("The NNUE file the engine loaded (its EvalFile default); absent on older reviews"),
  })
  .describe('The engine that made a review; reviews made with another build stay valid and carry their own');

export const StoredAnalysis = z.object({
  engine: EngineIdentity,
  budget: z.object({ nodesPerPosition: z.number().int(), multiPv: z.number().int() }),
  startFen: z.string(),
  movesUci: z.array(z.string()),
  /** movesUci.length + 1 positions, in game order. */
  positions: z.array(StoredPosition),
  analysedAt: z.string(),
});
export type EngineScore = z.infer<typeof EngineScore>;
export type EngineIdentity = z.infer<typeof EngineIdentity>;
export type EngineLine = z.infer<typeof EngineLine>;
export type StoredPosition = z.infer<typeof StoredPosition>;
export type StoredAnalysis = z.infer<typeof StoredAnalysis>;
