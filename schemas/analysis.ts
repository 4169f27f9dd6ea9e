import { z } from 'zod';
import type * as C from '../src/chess/types.js';
import { CLASSIFICATIONS, COLOURS, CONCEPT_IDS, EVALUATION_TYPES, MOMENT_SOURCES, PHASES, PLY_JUDGMENTS, SEVERITIES } from '../src/chess/types.js';
import { declaredAs } from './declared.js';
import { CONCEPT_RULES } from '../src/chess/concepts.js';
import { CONVENTION_RULES } from '../src/chess/evaluation.js';

export { CONCEPT_IDS, SEVERITIES };

export const SIDES = ['both', 'user'] as const;

export const AnalysisInput = z.object({
  id: z.string().min(1).max(100).describe('Game id from list_games'),
  fromPly: z.number().int().default(1).describe('First ply to return (1-based; default 1); out-of-range values degrade to 1'),
  limit: z.number().int().default(40).describe('Plies to return, 1 to 120 (default 40); values outside are clamped'),
  side: z.enum(SIDES).default('both').describe("both (default) or user: only the owner's moves"),
});

export const CriticalMomentsInput = z.object({
  id: z.string().min(1).max(100).describe('Game id from list_games'),
  side: z.enum(SIDES).default('both').describe("both (default) or user: only the owner's moves"),
  minSeverity: z.enum(SEVERITIES).optional().describe('Drop moments below this severity (moderate, major, critical); brilliancies are exempt'),
  minCentipawnLoss: z.number().int().min(1).optional().describe('Also surface any ply conceding at least this many centipawns (source: derived)'),
  maxMoments: z.number().int().min(1).max(40).default(40).describe('At most this many moments (1 to 40, default 40): the most severe, returned in ply order'),
});

export const WeaknessInput = z.object({
  range: z.enum(['30d', '90d', '1y', 'all']).default('1y').describe('Window: 30d, 90d, 1y (default) or all'),
});

// ---------------------------------------------------------------------------------------------
// Outputs (spec section 2: evaluation object, per-ply analysis, ply, critical moments, weakness).
// Object shapes are declared in src/chess/types.ts; declaredAs ties each schema to its declaration.

export const Evaluation = declaredAs<C.Evaluation>()(
  z
    .object({
      type: z.enum(EVALUATION_TYPES).describe('cp: a centipawn score; mate: a forced mate'),
      value: z
        .number()
        .describe('Centipawns in the stated frame; for a mate, ±(100000 − |mateIn|): a large equivalent so mates outrank every cp score and faster mates rank higher'),
      pawns: z.number().describe('value / 100'),
      mateIn: z
        .number()
        .int()
        .nullable()
        .describe('Moves to mate for a mate score (positive: the side in this frame mates; negative: it is mated; 0: the game ended in checkmate, value gives the winner); null for cp'),
    })
    .describe('An engine evaluation')
    .meta({ id: 'Evaluation' }),
);

export const MoveRef = declaredAs<C.MoveRef>()(
  z
    .object({
      san: z.string().describe('Move in SAN'),
      uci: z.string().describe('Move in UCI (e2e4, e7e8q)'),
    })
    .describe('A move in SAN and UCI')
    .meta({ id: 'MoveRef' }),
);

export const ConceptTag = declaredAs<C.ConceptTag>()(
  z.object({
    id: z.enum(CONCEPT_IDS).describe('Concept id (detector set v1)'),
    evidence: z.record(z.string(), z.unknown()).describe('What the detector saw: squares, pieces, moves (SAN), numbers; enough to check the tag by hand'),
    detector: z.literal('v1').describe('Detector set version'),
  }),
);

export const Alternative = declaredAs<C.Alternative>()(
  z.object({
    move: MoveRef.describe('An engine MultiPV choice other than the first'),
    eval: Evaluation.describe("Its evaluation, side-to-move frame (the mover's, since it is scored before the move)"),
    line: z.array(z.string()).describe('Its line in SAN, replayed and legality-checked'),
    lineUci: z.array(z.string()).describe('The same line in UCI'),
  }),
);

export const Ply = declaredAs<C.Ply>()(
  z
    .object({
      ply: z.number().int().describe('1-based; ply 1 is White’s first move'),
      moveNumber: z.number().int().describe('Full-move number'),
      colour: z.enum(COLOURS).describe('Who moved'),
      isUserMove: z.boolean().describe('Whether the owner made this move'),
      fenBefore: z.string().describe('Position before the move'),
      fenAfter: z.string().describe('Position after the move'),
      playedMove: MoveRef.describe('The move played'),
      playedMoveLegal: z.boolean().describe('Whether the played move replayed legally (it always should; false flags corrupt stored data)'),
      bestMove: MoveRef.nullable().describe("The engine's first choice in the position before the move; null when the position has no stored line"),
      isBestMove: z.boolean().describe("Whether the played move was the engine's first choice"),
      alternatives: z.array(Alternative).describe("The engine's other MultiPV choices (second and later), best first"),
      evalBefore: Evaluation.nullable().describe("Engine evaluation before the move, side-to-move frame (= the mover), on lichess's centipawn scale"),
      evalAfter: Evaluation.nullable().describe("Engine evaluation after the move, side-to-move frame (= the opponent's point of view), on lichess's centipawn scale"),
      evalBeforeMover: Evaluation.nullable().describe("evalBefore in the mover's frame"),
      evalAfterMover: Evaluation.nullable().describe("evalAfter restated in the mover's frame"),
      centipawnLoss: z.number().int().describe('Loss on evaluations clamped to ±500 cp; 0 for the engine’s first choice; never negative'),
      capApplied: z.boolean().describe('Whether the ±500 cp clamp changed either evaluation'),
      lossReconciles: z.boolean().describe('Whether centipawnLoss equals evalBeforeMover.value − evalAfterMover.value exactly (authoritative; see conventions.notes.lossReconciles)'),
      classification: z.enum(CLASSIFICATIONS).describe('Move class; rules in the tool description'),
      judgment: z
        .enum(PLY_JUDGMENTS)
        .nullable()
        .describe("lichess's judgment; null: none. Beside the class: a miss says here whether it was a mistake or a blunder (inaccuracy, mistake, blunder)"),
      principalVariation: z.array(z.string()).describe("The engine's best line from the position before the move, SAN"),
      principalVariationUci: z.array(z.string()).describe('The same line in UCI'),
      principalVariationTruncated: z.boolean().describe('True when the stored line would not fully replay and was cut at its last legal move'),
      onlyMoveMargin: z.number().describe("Win-probability points (0-100) between the engine's first and second choice before the move; 0 when fewer than two choices were stored"),
      forcedMove: z.boolean().describe('True when the move was the only legal move'),
      clockSecondsBefore: z.number().nullable().describe("The mover's clock before the move (seconds); null when the game carries no clock readings"),
      clockSecondsAfter: z.number().nullable().describe("The mover's clock after the move; null when unknown"),
      timeSpentSeconds: z.number().nullable().describe('Seconds spent on the move (clock before − clock after + increment); null when unknown'),
      phase: z.enum(PHASES).nullable().describe('opening, middlegame or endgame (divider-v1); null when there is no position'),
      concepts: z.array(ConceptTag).describe('Deterministic concept tags (detector set v1)'),
      humanDifficulty: z.null().describe('Always null: not modelled'),
    })
    .describe('One ply of the analysed game')
    .meta({ id: 'Ply' }),
);

export const Provenance = z.object({
  source: z.string().describe('Where the numbers come from (engine review of this service)'),
  engineVersion: z.string().describe('Engine name and version'),
  depth: z.number().int().describe('Median search depth reached per analysed position'),
  analysedAt: z.string().describe('When the review completed (ISO 8601)'),
  generatedBy: z.literal('deterministic').describe('Derived views are computed deterministically from the stored engine output; no language model'),
});

export const Conventions = z.object({
  evalFrame: z.literal('side-to-move').describe('Frame of evalBefore/evalAfter'),
  moverFrame: z.literal('mover').describe('Frame of the ...Mover fields'),
  capCentipawns: z.literal(500).describe('Clamp applied to evaluations before computing losses and swings'),
  notes: z
    .object({
      evalFrame: z.string().describe(`How to read the frames. In full: ${CONVENTION_RULES.evalFrame}`),
      capCentipawns: z.string().describe(`What the cap does. In full: ${CONVENTION_RULES.capCentipawns}`),
      lossReconciles: z.string().describe(`When centipawnLoss differs from the mover-frame difference. In full: ${CONVENTION_RULES.lossReconciles}`),
    })
    .describe('Explanations of the conventions, for an agent to quote'),
});

export const Availability = z.object({
  clocks: z.boolean().describe('Clock readings are present for this game'),
  timeSpent: z.boolean().describe('Time spent per move can be computed'),
  alternatives: z.boolean().describe('The engine stored more than one choice per position (MultiPV)'),
  concepts: z.boolean().describe('Concept tags are computed'),
  humanDifficulty: z.boolean().describe('Always false: not modelled'),
  threats: z.boolean().describe('Always false: threat detection is partial (only what the concept detectors see)'),
  conceptDetectors: z
    .object({
      detectors: z.array(z.enum(CONCEPT_IDS)).describe('Detectors that ran'),
      version: z.literal('v1').describe('Detector set version'),
    })
    .describe('The concept detectors behind the concepts lists'),
  notes: z.object({ concepts: z.string().describe(`What each detector looks for. In full: ${CONCEPT_RULES}`) }).describe('Explanations for an agent'),
});

export const TimeControl = z.object({
  raw: z.string().describe('As the source records it, e.g. "300+2"'),
  baseSeconds: z.number().int().nullable().describe('Starting time in seconds; null when the format has none (daily, unknown)'),
  incrementSeconds: z.number().int().nullable().describe('Increment per move in seconds; null when unknown'),
});

const NOT_ANALYSED = ' Absent when analysed is false.';

export const AnalysisResponse = z
  .object({
    analysed: z.boolean().describe('False when the owned game has no review: then only gameId and nextStep are set'),
    gameId: z.string().describe('The game id'),
    nextStep: z.string().optional().describe('When analysed is false: what to call to get an analysis (request_game_review, or attach_pgn first)'),
    provenance: Provenance.optional().describe('Where the numbers come from.' + NOT_ANALYSED),
    conventions: Conventions.optional().describe('Frames, cap and loss conventions.' + NOT_ANALYSED),
    accuracyWhite: z.number().optional().describe("White's accuracy (0-100, lichess method)." + NOT_ANALYSED),
    accuracyBlack: z.number().optional().describe("Black's accuracy." + NOT_ANALYSED),
    userColour: z.enum(COLOURS).optional().describe("The owner's colour." + NOT_ANALYSED),
    timeControl: TimeControl.nullable().optional().describe('Parsed time control; null when the game records none.' + NOT_ANALYSED),
    plyCount: z.number().int().optional().describe('Plies in the analysed game.' + NOT_ANALYSED),
    availability: Availability.optional().describe('What this analysis can and cannot say.' + NOT_ANALYSED),
    pagination: z
      .object({
        fromPly: z.number().int().describe('First ply considered (after degrading an out-of-range request to 1)'),
        limit: z.number().int().describe('Limit applied (clamped to 1-120)'),
        side: z.enum(SIDES).describe('Side filter applied'),
        returned: z.number().int().describe('Plies in this page'),
        matching: z.number().int().describe('Plies matching the side filter from fromPly on'),
        totalPlies: z.number().int().describe('Plies in the game'),
        nextFromPly: z.number().int().nullable().describe('Pass as fromPly for the next page; null on the last page'),
      })
      .optional()
      .describe('What was applied.' + NOT_ANALYSED),
    plies: z.array(Ply).optional().describe('The page of plies.' + NOT_ANALYSED),
  })
  .describe('Per-ply engine analysis of one game');

export const EngineLineView = declaredAs<C.EngineLineView>()(
  z.object({
    line: z.array(z.string()).describe('SAN, replayed and legality-checked'),
    lineUci: z.array(z.string()).describe('UCI'),
    truncated: z.boolean().describe('Cut at the last legal move of the stored line'),
  }),
);

export const Moment = declaredAs<C.Moment>()(
  z
    .object({
      ply: z.number().int().describe('1-based ply'),
      moveNumber: z.number().int().describe('Full-move number'),
      fen: z.string().nullable().describe('Position before the move; null when the ply is missing from the stored analysis'),
      sideToMove: z.enum(COLOURS).describe('Who was to move (the mover)'),
      isUserMove: z.boolean().describe('Whether the owner made the move'),
      type: z.string().nullable().describe('Engine moments: the classification that made it a moment (blunder, miss, brilliant); null on derived moments'),
      source: z.enum(MOMENT_SOURCES).describe('engine: judged a blunder by lichess\'s rules (≥ 15 win% lost, or a forced mate allowed from −7.00 or better or let go for +7.00 or less) or a brilliancy; derived: surfaced by minCentipawnLoss'),
      severity: z.enum(SEVERITIES).describe('moderate (< 25 win% lost), major (25 to 40), critical (≥ 40, or a mate allowed or missed); brilliancies are moderate'),
      classification: z.string().nullable().describe('Move class of the ply'),
      judgment: z.enum(PLY_JUDGMENTS).nullable().describe("lichess's judgment; null: none. As on the ply (inaccuracy, mistake, blunder)"),
      evalSwingCentipawns: z.number().int().describe("Mover-frame swing on evaluations clamped to ±500 (positive: the mover lost ground)"),
      centipawnLoss: z.number().int().nullable().describe('As on the ply'),
      evalBefore: Evaluation.nullable().describe('Side-to-move frame'),
      evalAfter: Evaluation.nullable().describe("Side-to-move frame (the opponent's)"),
      evalBeforeMover: Evaluation.nullable().describe("Mover's frame"),
      evalAfterMover: Evaluation.nullable().describe("Mover's frame"),
      capApplied: z.boolean().describe('As on the ply'),
      lossReconciles: z.boolean().describe('As on the ply'),
      playedMoveLegal: z.boolean().describe('As on the ply'),
      playedMove: z
        .object({ san: z.string().describe('Move in SAN'), uci: z.string().nullable().describe('Move in UCI; null when the position is missing') }).describe('The move played; uci null when the position is missing'),
      bestMove: MoveRef.nullable().describe("The engine's first choice, or null"),
      continuation: EngineLineView.nullable().describe('The line the engine wanted from the position before the move'),
      refutation: EngineLineView.omit({ truncated: true })
        .extend({
          truncated: z.boolean().describe('Cut at the last legal move of the stored line'),
          eval: Evaluation.describe("The engine's evaluation after the played move, from the opponent's point of view"),
          evalFrame: z.literal('opponent').describe('Frame of eval'),
          note: z.string().describe('How to read it'),
        })
        .nullable()
        .describe("The engine's best line from the position the played move produced; null when none is stored (e.g. the game ended)"),
      summary: z.string().describe('One or two sentences templated from the numbers'),
      engineDescription: z.string().describe('The engine facts behind the moment'),
      summarySource: z.literal('template').describe('No language model is involved'),
      hints: z.array(z.string()).describe('Progressively narrowing hints that never name the move'),
      trainingQuestion: z.string().nullable().describe('A question to put to the player, or null'),
      acceptableAnswers: z
        .array(
          z.object({
            san: z.string().describe('Move in SAN'),
            uci: z.string().describe('Move in UCI'),
            note: z.string().describe("Why it is accepted: the engine's first choice, or how far below it"),
          }),
        )
        .describe("The engine's first choice plus any stored alternative within 0.25 pawns of it"),
      clockSecondsBefore: z.number().nullable().describe("Mover's clock before the move, or null"),
      timeSpentSeconds: z.number().nullable().describe('Time spent on the move, or null'),
      phase: z.enum(PHASES).nullable().describe('divider-v1 phase, or null'),
      concepts: z.array(ConceptTag).describe('As on the ply'),
      humanDifficulty: z.null().describe('Always null'),
      matchesKnownWeakness: z
        .null()
        .describe('Always null: cross-game recurring-weakness detection does not exist; null is not a checked-and-clear result'),
    })
    .describe('One critical moment'),
);

export const CriticalMomentsResponse = z
  .object({
    analysed: z.boolean().describe('False when the owned game has no review: then only gameId and nextStep are set'),
    gameId: z.string().describe('The game id'),
    nextStep: z.string().optional().describe('When analysed is false: what to call next'),
    provenance: Provenance.optional().describe('As in get_game_analysis.' + NOT_ANALYSED),
    conventions: Conventions.optional().describe('As in get_game_analysis.' + NOT_ANALYSED),
    userColour: z.enum(COLOURS).optional().describe("The owner's colour." + NOT_ANALYSED),
    side: z.enum(SIDES).optional().describe('Side filter applied.' + NOT_ANALYSED),
    availability: Availability.extend({
      matchesKnownWeakness: z.literal(false).describe('Always false: cross-game weakness matching is not built'),
    })
      .optional()
      .describe('As in get_game_analysis, plus matchesKnownWeakness.' + NOT_ANALYSED),
    filters: z
      .object({
        side: z.enum(SIDES).describe('Side filter applied'),
        minSeverity: z.enum(SEVERITIES).nullable().describe('Severity floor applied, or null'),
        minCentipawnLoss: z.number().int().nullable().describe('Derived-moment threshold applied, or null'),
        maxMoments: z.number().int().describe('Most moments returned'),
      })
      .optional()
      .describe('The filters applied.' + NOT_ANALYSED),
    count: z.number().int().optional().describe('Moments returned.' + NOT_ANALYSED),
    matching: z.number().int().optional().describe('Moments matching the filters before maxMoments.' + NOT_ANALYSED),
    limit: z.number().int().optional().describe('maxMoments applied.' + NOT_ANALYSED),
    selection: z.literal('most-severe-first').optional().describe('How moments are kept when more match than maxMoments (then returned in ply order).' + NOT_ANALYSED),
    matchingBySource: z
      .object({
        engine: z.number().int().describe('Matching moments that passed the engine gate'),
        derived: z.number().int().describe('Matching moments added by minCentipawnLoss'),
      }).optional().describe('matching split by source.' + NOT_ANALYSED),
    truncated: z.boolean().optional().describe('True when matching > count.' + NOT_ANALYSED),
    maxLimit: z.literal(40).optional().describe('Largest maxMoments accepted.' + NOT_ANALYSED),
    moments: z.array(Moment).optional().describe('The moments, in ply order.' + NOT_ANALYSED),
  })
  .describe('Critical moments of one game');

export const WEAKNESS_DIMENSIONS = ['phase', 'concept', 'timeClass', 'colour', 'opening', 'clock'] as const;

export const WeaknessBucket = z.object({
  bucket: z.string().describe('dimension:value, e.g. phase:endgame, concept:hanging_piece, clock:low'),
  dimension: z.enum(WEAKNESS_DIMENSIONS).describe('Which way the moves were grouped'),
  value: z.string().describe('The group'),
  games: z.number().int().describe('Reviewed games contributing moves to the bucket'),
  moves: z.number().int().describe("The owner's non-book moves in the bucket"),
  errors: z.number().int().describe('Of those, errors (mistake, miss or blunder)'),
  errorRate: z.number().describe('errors / moves (0-1)'),
  excessErrors: z.number().describe('errors − overallErrorRate × moves: errors beyond what the owner’s overall rate predicts'),
});

export const WeaknessProfile = z
  .object({
    range: z.enum(['30d', '90d', '1y', 'all']).describe('Window applied'),
    from: z.string().nullable().describe('Start of the window (ISO 8601); null for all'),
    reviewedGames: z.number().int().describe('Reviewed games of the owner in the window'),
    moves: z.number().int().describe("The owner's non-book moves in those games"),
    errors: z.number().int().describe('Of those, errors'),
    overallErrorRate: z.number().describe('errors / moves over the whole window (0 when no moves)'),
    definitions: z
      .object({
        error: z.string().describe('What counts as an error'),
        errorRate: z.string().describe('How error rates are computed'),
        ranking: z.string().describe('When and how buckets are ranked'),
        buckets: z.string().describe('The buckets and what falls in each'),
      })
      .describe('The definitions behind the numbers, for an agent to quote'),
    ranked: z
      .array(WeaknessBucket.extend({ rank: z.number().int().describe('1 = the biggest excess of errors') }))
      .describe('Buckets with ≥ 5 reviewed games whose error rate is above the overall rate by more than chance (definitions.ranking), worst first'),
    unranked: z
      .array(WeaknessBucket.extend({ reason: z.enum(['at-or-below-overall', 'clock-unknown', 'healthy-state', 'within-chance']).describe('Why it has no rank (healthy-state: clock:ok names nothing to act on; within-chance: above the overall rate by no more than chance gives, definitions.ranking)') }))
      .describe('Buckets with ≥ 5 games that are not ranked: at or below the overall rate, above it by no more than chance, clock:unknown, or a healthy state such as clock:ok (counted, never ranked)'),
    lowSample: z.array(WeaknessBucket).describe('Buckets with under 5 reviewed games: counts only, no rank'),
  })
  .describe("What goes wrong across the owner's reviewed games");

export type Evaluation = C.Evaluation;
export type Ply = C.Ply;
export type ConceptTag = C.ConceptTag;
export type Moment = C.Moment;
export type AnalysisResponse = z.infer<typeof AnalysisResponse>;
export type CriticalMomentsResponse = z.infer<typeof CriticalMomentsResponse>;
export type WeaknessProfile = z.infer<typeof WeaknessProfile>;
export type WeaknessBucket = z.infer<typeof WeaknessBucket>;
export type ConceptId = C.ConceptId;
