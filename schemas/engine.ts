import { z } from 'zod';
import type * as T from '../src/chess/engineOutput.js';
import { ENGINE_KINDS, REVIEW_SOURCES, SEARCH_MODES, TERMINALS } from '../src/chess/engineOutput.js';
import { JUDGMENTS } from '../src/chess/judgments.js';
import { declaredAs } from './declared.js';

/**
 * What one review stores: raw engine output per position, nothing derived (declared in
 * src/chess/engineOutput.ts). Scores are as UCI reports them: from the side to move's point of view.
 */
export const EngineScore = declaredAs<T.EngineScore>()(
  z
    .object({
      cp: z.number().int().nullable().describe('Centipawns, side to move; null when a mate score'),
      mate: z.number().int().nullable().describe('Mate in N moves, side to move (negative: being mated); null for cp scores'),
    })
    .describe('A raw UCI score'),
);

export const EngineLine = declaredAs<T.EngineLine>()(
  z.object({
    multiPv: z.number().int().min(1),
    score: EngineScore,
    pv: z.array(z.string()).describe('Principal variation in UCI'),
    depth: z.number().int(),
  }),
);

export const StoredPosition = declaredAs<T.StoredPosition>()(
  z.object({
    index: z.number().int().min(0),
    fen: z.string(),
    lines: z.array(EngineLine),
    terminal: z.enum(TERMINALS).nullable(),
    depth: z.number().int(),
    nodes: z.number().int(),
    deeper: z.literal(true).optional().describe('Searched again at the deeper budget (budget.deeper); absent: first pass only'),
  }),
);

export const EngineIdentity = declaredAs<T.EngineIdentity>()(
  z
    .object({
      name: z.string(),
      version: z.string(),
      build: z.enum(ENGINE_KINDS).optional().describe('Bundled WASM build (full or lite network) or native; absent on reviews stored before builds were recorded'),
      network: z.string().nullable().optional().describe('The NNUE file the engine loaded (its EvalFile default); absent on older reviews'),
    })
    .describe('The engine that made a review; reviews made with another build stay valid and carry their own'),
);

export const SourceReview = declaredAs<T.SourceReview>()(
  z
    .object({
      name: z.enum(REVIEW_SOURCES),
      gameId: z.string(),
      judgments: z.array(z.enum(JUDGMENTS).nullable()).describe("The source's own judgment of each ply, as published"),
      unknownJudgments: z
        .record(z.string(), z.string())
        .optional()
        .describe('Judgment names the source published that are not one of ours, by ply index: kept, read as unknown'),
      accuracy: z
        .object({ white: z.number().nullable(), black: z.number().nullable() })
        .optional()
        .describe("Each side's accuracy as the source published it; absent on older imports"),
    })
    .describe("A source's own review of the game (lichess's server analysis), stored in place of an engine run"),
);

export const WorkerOrigin = declaredAs<T.WorkerOrigin>()(
  z
    .object({
      key: z.string().describe("The worker key's name (the machine, as its owner named it)"),
      keyId: z.string().optional().describe("The worker key's id, to find its reviews again once it is revoked (absent on reviews stored before issue 44)"),
      userAgent: z.string().describe('The User-Agent the worker sent (its client and version), as sent'),
      flavor: z.string().describe('The evaluation the worker reported (stockfish.flavor: nnue or classical)'),
    })
    .describe('The review worker that searched the positions (issue 36)'),
);

export const StoredAnalysis = declaredAs<T.StoredAnalysis>()(
  z.object({
    engine: EngineIdentity,
    worker: WorkerOrigin.optional(),
    source: SourceReview.optional(),
    budget: z.object({
      nodesPerPosition: z.number().int(),
      multiPv: z.number().int(),
      deeper: z
        .object({
          nodesPerPosition: z.number().int(),
          margins: z.object({
            judgment: z.number().describe('Winning chances (−1..1) either side of the 0.1 / 0.2 / 0.3 judgment thresholds'),
            great: z.number().describe('Win% points below the great / only-move threshold from which a played first choice is searched again'),
            mateCp: z.number().describe('Centipawns from which a mate may hide (0: off)'),
            moments: z.boolean().describe('The positions of a ply judged Blunder on the first pass are searched again'),
          }),
        })
        .optional()
        .describe('The deeper look: positions the first pass could not settle, searched again at this budget; absent on reviews without one'),
      search: z.enum(SEARCH_MODES).optional().describe('position: each position searched alone from a clean hash (reusable, reproducible); fishnet: a review worker\'s search, backwards in chunks of at most 6 with the hash carried inside a chunk; absent on older reviews (game walk, hash carried)'),
    }),
    startFen: z.string(),
    movesUci: z.array(z.string()),
    positions: z.array(StoredPosition),
    analysedAt: z.string(),
  }),
);

export type EngineScore = T.EngineScore;
export type EngineIdentity = T.EngineIdentity;
export type EngineLine = T.EngineLine;
export type StoredPosition = T.StoredPosition;
export type StoredAnalysis = T.StoredAnalysis;
