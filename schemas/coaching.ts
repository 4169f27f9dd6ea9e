import { z } from 'zod';

export const ENTRY_KINDS = ['reflection', 'note', 'assignment', 'result', 'session'] as const;
export const ASSIGNMENT_STATUSES = ['open', 'completed', 'skipped'] as const;

export const SetFocusInput = z.strictObject({
  focusId: z.string().min(1).max(100).optional().describe('Existing focus to retitle or resolve; omit to create'),
  title: z.string().trim().min(1).max(200).optional().describe('Title for a new focus, or the new title'),
  resolve: z.boolean().optional().describe('true resolves the focus named by focusId'),
});

export const AddEntryInput = z.strictObject({
  kind: z.enum(ENTRY_KINDS).describe('reflection, note, assignment, result or session'),
  body: z.string().min(1).max(2000).describe('Plain text, 1 to 2000 characters'),
  status: z.enum(ASSIGNMENT_STATUSES).optional().describe('For an assignment: its starting status (default open); with assignmentId: completed or skipped'),
  assignmentId: z.string().min(1).max(100).optional().describe('An open assignment of the owner to complete or skip (with status)'),
  positionId: z.string().min(1).max(100).optional().describe('On a result: the saved position that was quizzed'),
  correct: z.boolean().optional().describe('On a result with positionId: whether the quiz answer was right'),
  focusId: z.string().min(1).max(100).optional().describe('Focus the entry belongs to'),
});

export const SavePositionInput = z.strictObject({
  fen: z.string().min(1).max(100).describe('A legal position in FEN; with gameId and ply it is taken from your review instead'),
  label: z.string().min(1).max(80).describe('Short label, 1 to 80 characters'),
  why: z.string().max(500).optional().describe('Why it matters, up to 500 characters'),
  gameId: z.string().min(1).max(100).optional().describe('Owned game the position comes from'),
  ply: z.number().int().min(0).optional().describe('Ply of that game (the position after this ply; 0 = start)'),
  focusId: z.string().min(1).max(100).optional().describe('Focus the position belongs to'),
});

export const ListPositionsInput = z.object({
  page: z.number().int().min(1).default(1).describe('Page (25 positions a page)'),
  focusId: z.string().min(1).max(100).optional().describe('Only positions of this focus'),
  dueForQuiz: z.boolean().optional().describe('true: only positions never quizzed or whose latest quiz was wrong'),
});

export const PositionIdInput = z.object({ id: z.string().min(1).max(100).describe('Saved position id from list_saved_positions') });
