/**
 * The chess value sets and the shapes of a reviewed game, declared once at the bottom of the code.
 * `schemas/` builds its zod schemas on these (z.enum(CLASSIFICATIONS), and object schemas tied to
 * these interfaces with `declaredAs<T>()`), so `src/chess` never imports anything above itself.
 */

export const COLOURS = ['white', 'black'] as const;
export type Colour = (typeof COLOURS)[number];

/** The nine move classes, in the order counts and tool descriptions list them. */
export const CLASSIFICATIONS = ['book', 'brilliant', 'best', 'great', 'good', 'inaccuracy', 'mistake', 'miss', 'blunder'] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

/**
 * lichess's judgment of a move (lila Advice.scala; src/chess/judgments.ts), carried beside the class so that
 * `miss` (a mistake or blunder that let a chance go) never hides which of the two it was.
 */
export const PLY_JUDGMENTS = ['inaccuracy', 'mistake', 'blunder'] as const;
export type PlyJudgment = (typeof PLY_JUDGMENTS)[number];

/** Concept detector set v1 (src/chess/concepts.ts). */
export const CONCEPT_IDS = [
  'hanging_piece',
  'missed_capture',
  'missed_mate',
  'allowed_mate',
  'fork',
  'pin',
  'back_rank',
  'forcing_move_missed',
  'opening_principle',
  'time_trouble',
] as const;
export type ConceptId = (typeof CONCEPT_IDS)[number];
export const CONCEPT_DETECTOR_VERSION = 'v1';

/** Critical-moment severities, least severe first (src/chess/moments.ts). */
export const SEVERITIES = ['moderate', 'major', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Game phases of the divider-v1 rule (src/chess/phase.ts). */
export const PHASES = ['opening', 'middlegame', 'endgame'] as const;
export type Phase = (typeof PHASES)[number];

export const EVALUATION_TYPES = ['cp', 'mate'] as const;

/** An engine evaluation in a stated frame (spec section 2, "evaluation object"). */
export interface Evaluation {
  type: (typeof EVALUATION_TYPES)[number];
  /** Centipawns; for a mate, ±(100000 − |mateIn|). */
  value: number;
  pawns: number;
  /** Moves to mate (positive: this frame mates), 0 for a finished checkmate, null for cp. */
  mateIn: number | null;
}

export interface MoveRef {
  san: string;
  uci: string;
}

export interface ConceptTag {
  id: ConceptId;
  evidence: Record<string, unknown>;
  detector: typeof CONCEPT_DETECTOR_VERSION;
}

export interface Alternative {
  move: MoveRef;
  eval: Evaluation;
  line: string[];
  lineUci: string[];
}

/** One ply of an analysed game (spec "Ply object"); schemas/analysis.ts `Ply` describes each field. */
export interface Ply {
  ply: number;
  moveNumber: number;
  colour: Colour;
  isUserMove: boolean;
  fenBefore: string;
  fenAfter: string;
  playedMove: MoveRef;
  playedMoveLegal: boolean;
  bestMove: MoveRef | null;
  isBestMove: boolean;
  alternatives: Alternative[];
  evalBefore: Evaluation | null;
  evalAfter: Evaluation | null;
  evalBeforeMover: Evaluation | null;
  evalAfterMover: Evaluation | null;
  centipawnLoss: number;
  capApplied: boolean;
  lossReconciles: boolean;
  classification: Classification;
  /** lichess's judgment of the move, null when it judges none (see PLY_JUDGMENTS). */
  judgment: PlyJudgment | null;
  principalVariation: string[];
  principalVariationUci: string[];
  principalVariationTruncated: boolean;
  onlyMoveMargin: number;
  forcedMove: boolean;
  clockSecondsBefore: number | null;
  clockSecondsAfter: number | null;
  timeSpentSeconds: number | null;
  phase: Phase | null;
  concepts: ConceptTag[];
  humanDifficulty: null;
}

export const MOMENT_SOURCES = ['engine', 'derived'] as const;
export type MomentSource = (typeof MOMENT_SOURCES)[number];

export interface EngineLineView {
  line: string[];
  lineUci: string[];
  truncated: boolean;
}

/** One critical moment (spec "critical moments"); schemas/analysis.ts `Moment` describes each field. */
export interface Moment {
  ply: number;
  moveNumber: number;
  fen: string | null;
  sideToMove: Colour;
  isUserMove: boolean;
  type: string | null;
  source: MomentSource;
  severity: Severity;
  classification: string | null;
  /** lichess's judgment of the ply, as on the ply. */
  judgment: PlyJudgment | null;
  evalSwingCentipawns: number;
  centipawnLoss: number | null;
  evalBefore: Evaluation | null;
  evalAfter: Evaluation | null;
  evalBeforeMover: Evaluation | null;
  evalAfterMover: Evaluation | null;
  capApplied: boolean;
  lossReconciles: boolean;
  playedMoveLegal: boolean;
  playedMove: { san: string; uci: string | null };
  bestMove: MoveRef | null;
  continuation: EngineLineView | null;
  refutation: (EngineLineView & { eval: Evaluation; evalFrame: 'opponent'; note: string }) | null;
  summary: string;
  engineDescription: string;
  summarySource: 'template';
  hints: string[];
  trainingQuestion: string | null;
  acceptableAnswers: Array<MoveRef & { note: string }>;
  clockSecondsBefore: number | null;
  timeSpentSeconds: number | null;
  phase: Phase | null;
  concepts: ConceptTag[];
  humanDifficulty: null;
  matchesKnownWeakness: null;
}
