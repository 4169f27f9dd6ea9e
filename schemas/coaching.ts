import { z } from 'zod';
import { Timestamp } from './common.js';

export const ENTRY_KINDS = ['reflection', 'note', 'assignment', 'result', 'session'] as const;
export const ASSIGNMENT_STATUSES = ['open', 'completed', 'skipped'] as const;
export const FOCUS_STATUSES = ['active', 'resolved'] as const;

/** Spec section 8 (coaching counts and text). */
export const MAX_ACTIVE_FOCUSES = 3;
export const MAX_SAVED_POSITIONS = 500;
export const POSITIONS_PAGE_SIZE = 25;
export const ENTRY_BODY_MAX = 2000;
export const LABEL_MAX = 80;
export const WHY_MAX = 500;
/** Entries per page of the state's log, and how many resolved focuses the state shows. */
export const LOG_PAGE_SIZE = 50;
export const RECENT_RESOLVED_FOCUSES = 10;

export const SetFocusInput = z.strictObject({
  focusId: z.string().min(1).max(100).optional().describe('Existing focus to retitle or resolve; omit to create'),
  title: z.string().trim().min(1).max(200).optional().describe('Title for a new focus, or the new title'),
  resolve: z.boolean().optional().describe('true resolves the focus named by focusId'),
});

export const AddEntryInput = z.strictObject({
  kind: z.enum(ENTRY_KINDS).describe('reflection, note, assignment, result or session'),
  body: z.string().min(1).max(ENTRY_BODY_MAX).describe('Plain text, 1 to 2000 characters'),
  status: z.enum(ASSIGNMENT_STATUSES).optional().describe('For an assignment: its starting status (default open); with assignmentId: completed or skipped'),
  assignmentId: z.string().min(1).max(100).optional().describe('An open assignment of the owner to complete or skip (with status)'),
  positionId: z.string().min(1).max(100).optional().describe('On a result: the saved position that was quizzed'),
  correct: z.boolean().optional().describe('On a result with positionId: whether the quiz answer was right'),
  focusId: z.string().min(1).max(100).optional().describe('Focus the entry belongs to'),
});

export const SavePositionInput = z.strictObject({
  fen: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('A legal position in FEN; required unless gameId and ply are given, in which case the position is taken from your review instead'),
  label: z.string().min(1).max(LABEL_MAX).describe('Short label, 1 to 80 characters'),
  why: z.string().max(WHY_MAX).optional().describe('Why it matters, up to 500 characters'),
  gameId: z.string().min(1).max(100).optional().describe('Owned game (list_games) or study game (list_study_games) the position comes from; needs ply'),
  ply: z.number().int().min(0).optional().describe('Ply of that game (the position after this ply; 0 = start)'),
  focusId: z.string().min(1).max(100).optional().describe('Focus the position belongs to'),
});

export const ListPositionsInput = z.object({
  page: z.number().int().min(1).default(1).describe('Page (25 positions a page)'),
  focusId: z.string().min(1).max(100).optional().describe('Only positions of this focus'),
  dueForQuiz: z.boolean().optional().describe('true: only positions never quizzed or whose latest quiz was wrong'),
});

export const PositionIdInput = z.object({ id: z.string().min(1).max(100).describe('Saved position id from list_saved_positions') });

export const CoachingStateInput = z.object({
  cursor: z
    .string()
    .min(1)
    .max(40)
    .optional()
    .describe('nextCursor from a previous get_coaching_state, to page the entry log further back; omit for the newest entries'),
});

export const Focus = z
  .object({
    id: z.string().describe('Focus id'),
    title: z.string().describe('What the player is working on'),
    status: z.enum(FOCUS_STATUSES).describe('active or resolved'),
    createdAt: Timestamp.describe('When the focus was set'),
    resolvedAt: Timestamp.nullable().describe('When it was resolved; null while active'),
  })
  .describe('A training focus')
  .meta({ id: 'Focus' });
export type Focus = z.infer<typeof Focus>;

export const Entry = z
  .object({
    id: z.string().describe('Entry id (an assignment id, for add_coaching_entry assignmentId)'),
    kind: z.enum(ENTRY_KINDS).describe('reflection, note, assignment, result or session'),
    body: z.string().describe('Plain text'),
    status: z
      .enum(ASSIGNMENT_STATUSES)
      .nullable()
      .describe("An assignment: its current status. An entry closing an assignment: the status it gave it. Otherwise null"),
    assignmentId: z.string().nullable().describe('The assignment this entry completed or skipped, or null'),
    positionId: z.string().nullable().describe('The saved position this result quizzed, or null'),
    correct: z.boolean().nullable().describe('Quiz outcome of a result naming a position, or null'),
    focusId: z.string().nullable().describe('Focus the entry belongs to, or null'),
    createdAt: Timestamp.describe('When the entry was appended'),
  })
  .describe('A coaching log entry (append-only)')
  .meta({ id: 'CoachingEntry' });
export type Entry = z.infer<typeof Entry>;

export const Evaluation = z
  .object({
    cp: z.number().int().nullable().describe('Centipawns from the side to move; null for a mate score'),
    mate: z.number().int().nullable().describe('Mate in N for the side to move (negative: being mated); null for cp scores'),
  })
  .describe('Engine evaluation copied from the review');

export const QuizRecord = z
  .object({
    correct: z.boolean().describe('Whether the answer was right'),
    at: Timestamp.describe('When the quiz was recorded'),
    entryId: z.string().describe('The result entry that recorded it'),
  })
  .describe('One quiz of a saved position');

export const Position = z
  .object({
    id: z.string().describe('Saved position id'),
    fen: z.string().describe('The position in FEN'),
    label: z.string().describe('Short label'),
    why: z.string().nullable().describe('Why it matters, or null'),
    focusId: z.string().nullable().describe('Focus it belongs to, or null'),
    source: z
      .object({
        kind: z.enum(['game', 'study']).describe('game: a played game; study: a study game'),
        id: z.string().describe('Its id'),
        ply: z.number().int().describe('The position stands after this ply (0 = start)'),
      })
      .nullable()
      .describe('The game it was copied from, or null for a typed-in FEN'),
    evaluation: Evaluation.nullable().describe('Evaluation from the owner’s review when saved from a game, else null'),
    bestMoveUci: z.string().nullable().describe('The review’s best move (UCI) in this position, or null'),
    lastQuizzedAt: Timestamp.nullable().describe('When it was last quizzed; null if never'),
    quizHistory: z.array(QuizRecord).describe('Every quiz, oldest first'),
    dueForQuiz: z.boolean().describe('true when never quizzed or the latest quiz was wrong'),
    createdAt: Timestamp.describe('When it was saved'),
  })
  .describe('A saved position')
  .meta({ id: 'SavedPosition' });
export type Position = z.infer<typeof Position>;

export const PositionList = z
  .object({
    positions: z.array(Position).describe('Saved positions, newest first, 25 a page'),
    page: z.number().int().describe('The page returned (a page beyond the last falls back to 1)'),
    pageCount: z.number().int().describe('Pages with the filters applied (at least 1)'),
    total: z.number().int().describe('Positions matching the filters'),
  })
  .describe('A page of saved positions');

export const RemovePositionResult = z
  .object({
    removed: z.boolean().describe('false: nothing of yours had this id'),
    id: z.string().describe('The position id sent'),
  })
  .describe('Removal outcome; log entries that named it are kept');

export const CoachingState = z
  .object({
    focuses: z
      .object({
        active: z.array(Focus).describe('Active focuses, oldest first (at most 3)'),
        recentlyResolved: z.array(Focus).describe('The 10 most recently resolved focuses, newest first'),
      })
      .describe('Training focuses'),
    entries: z.array(Entry).describe('The log, newest first, 50 a page'),
    nextCursor: z.string().nullable().describe('Pass as cursor to read older entries; null when there are none'),
    openAssignments: z.array(Entry).describe('Assignments still open, oldest first (at most 100)'),
    positions: z
      .object({
        count: z.number().int().describe('Saved positions'),
        dueForQuiz: z.number().int().describe('Of those, never quizzed or latest quiz wrong'),
        limit: z.number().int().describe('The most a user may save (500)'),
      })
      .describe('Saved-position summary; list_saved_positions has the positions'),
    lastSessionAt: Timestamp.nullable().describe('When the newest session entry was written; null if none'),
  })
  .describe('The durable coaching state');
