import { z } from 'zod';

/**
 * lichess's fishnet protocol, as chess-footprint serves it under `/fishnet/` and as its own
 * `worker` client speaks it: the one declaration of every body both sides exchange. Field names
 * and meanings are the protocol's (fishnet `doc/protocol.md` and `src/api.rs`; what lila sends:
 * `modules/fishnet` `JsonApi.scala`), read for facts only; nothing here is fishnet's or lila's code.
 *
 * Bodies from the other side are untrusted: the request schemas bound every number and string so
 * that a parse failure names the field (zod's path), and the server checks the chess itself
 * (legal PVs, one entry per position) after this shape passes.
 */

/** Stockfish's MAX_PLY: no search reaches deeper, and fishnet's own plausibility check bounds |mate| by it (api.rs `Score::is_plausible`). */
export const STOCKFISH_MAX_PLY = 246;
/** Stockfish's VALUE_MATE in internal units: every reported centipawn score is below it in magnitude. */
export const STOCKFISH_VALUE_MATE = 32000;
/**
 * The longest PV a Stockfish search can print: MAX_PLY moves of at most 5 UCI characters and a space each.
 * A longer `pv` is no engine's; only its first plies are read anyway (src/chess/workerAnalysis.ts PV_KEPT_PLIES).
 */
export const PV_MAX_CHARS = STOCKFISH_MAX_PLY * 6;
/** fishnet's batch id is an `ArrayString<24>` (api.rs `BatchId`): a longer id fails the client's parse. */
export const WORK_ID_MAX = 24;
/* fishnet's chunk size and its 6/7 node limit are src/chess/fishnetChunks.ts (the worker's search uses them). */

/** The evaluation flavours a client reports (`stockfish.flavor`; assets.rs `EvalFlavor`). */
export const EVAL_FLAVORS = ['nnue', 'classical'] as const;
export type EvalFlavor = (typeof EVAL_FLAVORS)[number];

/** The node-limit keys lila sends today (JsonApi.scala); a client reads the one for its engine. */
export const NODE_KEYS = ['sf16', 'sf17_1', 'sf18', 'classical'] as const;
export type NodeKey = (typeof NODE_KEYS)[number];

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * The old protocol's client block in a request body (before the key moved to `Authorization: Bearer`).
 * Optional and accepted, but its key is not read: the key must be known before a body is (issue 44 item 2).
 */
export const FishnetClientBlock = z
  .object({
    version: z.string().max(64).optional().describe("The client's version"),
    apikey: z.string().max(256).optional().describe('Ignored: the worker key is read from Authorization: Bearer only, before the body'),
  })
  .describe('Who is asking (legacy body field)');
export type FishnetClientBlock = z.infer<typeof FishnetClientBlock>;

/** POST /fishnet/acquire and POST /fishnet/abort/{id}: `{}` from a current client. */
export const AcquireRequest = z
  .object({ fishnet: FishnetClientBlock.optional() })
  .describe('Body of acquire and abort: empty, or the legacy client block');
export type AcquireRequest = z.infer<typeof AcquireRequest>;

export const NodeLimits = z
  .object({
    sf16: count.describe('Nodes per position for a Stockfish 16 build (the key stock fishnet reads for NNUE)'),
    sf17_1: count.describe('Nodes per position for Stockfish 17.1'),
    sf18: count.describe('Nodes per position for Stockfish 18'),
    classical: count.describe('Nodes per position for a classical (hand-crafted evaluation) build'),
  })
  .describe('Node limit per position, one per engine generation, as lila sends');
export type NodeLimits = z.infer<typeof NodeLimits>;

export const AnalysisWork = z
  .object({
    type: z.literal('analysis').describe('An analysis batch (the only kind this server hands out; lichess also has "move")'),
    id: z.string().min(1).max(WORK_ID_MAX).describe('The job id to submit to: opaque, at most 24 characters'),
    nodes: NodeLimits,
    timeout: count.describe('Milliseconds allowed per ply; the lease is this × plies'),
    depth: z.number().int().min(1).max(STOCKFISH_MAX_PLY).optional().describe('Optional depth limit (a prepared protocol change; not sent by this server)'),
    multipv: z.number().int().min(1).max(255).optional().describe('Optional MultiPV (a prepared protocol change; absent means 1, which is what this server asks)'),
  })
  .describe('The work: an analysis of every position of a move sequence');
export type AnalysisWork = z.infer<typeof AnalysisWork>;

/** 202 answer of acquire (and of a final submission that asks for the next job). */
export const AcquireResponse = z
  .object({
    work: AnalysisWork,
    game_id: z.string().max(WORK_ID_MAX).describe('An opaque id of the batch (here the job id): never a game id of ours, never a source site id'),
    position: z.string().min(1).max(128).describe('Start position (X-FEN)'),
    variant: z.literal('standard').describe('Chess variant: always standard here'),
    moves: z.string().max(20_000).describe('The moves, UCI, space separated'),
    skipPositions: z.array(count).describe('Positions the server already knows (0 is the start position): answer `{skipped: true}` for them'),
  })
  .describe('A job handed to a worker');
export type AcquireResponse = z.infer<typeof AcquireResponse>;

export const FishnetScore = z
  .union([
    z.object({ cp: z.number().int().min(-STOCKFISH_VALUE_MATE).max(STOCKFISH_VALUE_MATE).describe('Centipawns, side to move') }).strict(),
    z.object({ mate: z.number().int().min(-STOCKFISH_MAX_PLY).max(STOCKFISH_MAX_PLY).describe('Mate in N moves, side to move (negative: being mated; 0: checkmated)') }).strict(),
  ], { error: 'a score is {"cp": N} or {"mate": N}, exactly one' })
  .describe('A UCI score from the side to move: exactly one of cp or mate');
export type FishnetScore = z.infer<typeof FishnetScore>;

/** One searched position. `pv` is absent for a position with no legal move (fishnet skips serialising an empty PV). */
export const AnalysedPosition = z
  .object({
    pv: z.string().max(PV_MAX_CHARS).optional().describe('Principal variation, UCI, space separated; absent when the position has no move'),
    depth: z.number().int().min(0).max(STOCKFISH_MAX_PLY).describe('Search depth reached'),
    score: FishnetScore,
    time: count.optional().describe('Milliseconds spent'),
    nodes: count.optional().describe('Nodes searched'),
    nps: count.optional().describe('Nodes per second'),
  })
  .describe('The engine result for one position');
export type AnalysedPosition = z.infer<typeof AnalysedPosition>;

export const SkippedPosition = z.object({ skipped: z.literal(true) }).strict().describe('A position the server listed in skipPositions');
export type SkippedPosition = z.infer<typeof SkippedPosition>;

/** One entry of `analysis`: a result, a skip, or null (still pending: a progress report). */
export const AnalysisEntry = z
  .union([SkippedPosition, AnalysedPosition, z.null()], { error: 'an entry is {"skipped": true}, null (pending), or a searched position {pv, depth, score, time, nodes}' })
  .describe('One position: searched, skipped, or null while pending');
export type AnalysisEntry = z.infer<typeof AnalysisEntry>;

/** POST /fishnet/analysis/{id}: the whole analysis, or a progress report (some entries null). */
export const AnalysisSubmission = z
  .object({
    fishnet: FishnetClientBlock.optional(),
    stockfish: z
      .object({ flavor: z.enum(EVAL_FLAVORS).describe('The evaluation the engine ran') })
      .describe('Which engine evaluation produced the analysis'),
    analysis: z.array(AnalysisEntry).max(4_000).describe('One entry per position, position 0 (the start) first'),
  })
  .describe('An analysis submitted by a worker');
export type AnalysisSubmission = z.infer<typeof AnalysisSubmission>;

/** GET /fishnet/status: queue figures per kind (here every job is a user's own request). */
export const QueueFigures = z.object({
  acquired: count.describe('Jobs currently leased to workers'),
  queued: count.describe('Jobs waiting for a worker'),
  oldest: count.describe('Age in seconds of the oldest waiting job'),
});
export type QueueFigures = z.infer<typeof QueueFigures>;

export const StatusResponse = z
  .object({ analysis: z.object({ user: QueueFigures, system: QueueFigures }) })
  .describe('Queue status, as lichess reports it');
export type StatusResponse = z.infer<typeof StatusResponse>;

/** Query of acquire and submit: `slow=true` (do not take user-requested work), `stop=true` (submit, take no next job). */
export const FishnetQuery = z.object({
  slow: z.enum(['true', 'false']).optional(),
  stop: z.enum(['true', 'false']).optional(),
});
export type FishnetQuery = z.infer<typeof FishnetQuery>;
