import { z } from 'zod';
import { Timestamp } from './common.js';

/**
 * Maximum study PGN size: 100,000 characters, the same bound as attach. A heavily annotated
 * master game with variations runs to 10–30k characters, so this leaves room for deep annotation
 * while keeping one upload (parse + replay) well under a few milliseconds and the request body
 * bounded. Larger inputs are refused by validation (400) before anything is parsed.
 */
export const STUDY_PGN_MAX_CHARS = 100_000;
/** Spec section 8: the study list returns up to 200 rows. */
export const STUDY_LIST_MAX = 200;

export const UploadStudyInput = z.strictObject({
  pgn: z
    .string()
    .min(1)
    .max(STUDY_PGN_MAX_CHARS)
    .describe('One complete PGN game with movetext (1 to 100,000 characters); comments become per-ply notes'),
});

export const StudyIdInput = z.object({ id: z.string().min(1).max(100).describe('Study game id from list_study_games') });

export const STUDY_REVIEW_STATUSES = ['none', 'queued', 'running', 'complete', 'failed'] as const;

export const StudyReview = z
  .object({
    status: z
      .enum(STUDY_REVIEW_STATUSES)
      .describe('none: never requested (call request_study_analysis); queued/running: in the engine queue; complete; failed: the last attempt failed'),
    accuracyWhite: z.number().nullable().describe("White's engine accuracy (0-100) when complete, else null"),
    accuracyBlack: z.number().nullable().describe("Black's engine accuracy (0-100) when complete, else null"),
  })
  .describe('Engine review state of the mainline (shared by every row with the same moves)');

export const StudyGame = z
  .object({
    id: z.string().describe('Study game id (use with request_study_analysis and delete_study_game)'),
    white: z.string().nullable().describe('White player from the PGN headers, or null'),
    black: z.string().nullable().describe('Black player from the PGN headers, or null'),
    event: z.string().nullable().describe('Event from the PGN headers, or null'),
    date: z.string().nullable().describe('Date header as written in the PGN (YYYY.MM.DD, may hold ??), or null'),
    result: z.string().describe('Result: 1-0, 0-1, 1/2-1/2 or *'),
    headers: z.record(z.string(), z.string()).describe('Every PGN header tag of the first upload'),
    startFen: z.string().describe('Starting position (the standard start unless the PGN had a FEN header)'),
    movesCount: z.number().int().describe('Full moves in the mainline'),
    plyCount: z.number().int().describe('Half-moves (plies) in the mainline'),
    opening: z
      .object({ eco: z.string().nullable().describe('ECO code'), name: z.string().describe('Opening name') })
      .nullable()
      .describe('Opening named from the moves (lichess opening table), else the ECO/Opening headers, else null'),
    review: StudyReview,
    notesCount: z.number().int().describe('Plies carrying a note (ply 0 is the comment before the first move)'),
    createdAt: Timestamp.describe('When the game entered the collection'),
  })
  .describe('A study collection row');
export type StudyGame = z.infer<typeof StudyGame>;

export const UploadStudyResult = StudyGame.extend({
  duplicate: z.boolean().describe('true when the same mainline was already in the collection: this is that row, its analysis kept'),
  notesAdded: z.number().int().describe('Per-ply notes this upload added (on a duplicate, only plies that had no note)'),
  note: z.string().nullable().describe('What a duplicate kept'),
}).describe('The stored or deduplicated study row');

export const StudyList = z
  .object({
    games: z.array(StudyGame).describe('Study games, newest first, at most 200'),
    total: z.number().int().describe('Games in the collection (may exceed the rows returned)'),
  })
  .describe('The study collection');

export const DeleteStudyResult = z
  .object({
    deleted: z.boolean().describe('false: nothing of yours had this id'),
    id: z.string().describe('The study game id sent'),
    notesDeleted: z.number().int().describe('Per-ply notes removed with it (0 when deleted is false)'),
  })
  .describe('Deletion outcome; the shared engine analysis and PGN text are kept');

/** One study game as the dashboard opens it (GET /api/v1/settings/study/{id}; not an MCP tool: list_study_games and get_game_analysis cover it for agents). */
export const StudyGameView = z
  .object({
    game: StudyGame,
    pgn: z.string().describe('The PGN as first uploaded (variations and comments kept)'),
    notes: z.array(z.object({ ply: z.number().int().describe('0: before the first move'), text: z.string() })).describe('The owner’s notes, by ply'),
    plies: z
      .array(
        z.object({
          ply: z.number().int(),
          colour: z.enum(['white', 'black']),
          classification: z.string().describe('The review’s classification of the move'),
          evalAfter: z.object({ type: z.enum(['cp', 'mate']), value: z.number() }).nullable().describe('Evaluation after the move, side to move’s frame'),
          isBestMove: z.boolean(),
          bestMove: z.string().nullable().describe('The engine’s move (SAN) when it differs'),
        }),
      )
      .describe('The stored review, one entry per ply; empty until the analysis completes'),
  })
  .describe('A study game with its moves, notes and analysis');
