import { z } from 'zod';

export const PGN_MAX_CHARS = 100_000;

export const AttachPgnInput = z.strictObject({
  id: z.string().min(1).max(100).describe('Exact game id from list_games'),
  pgn: z.string().min(1).max(PGN_MAX_CHARS).describe('One complete PGN game with movetext (1 to 100,000 characters)'),
});

export const AttachPgnResult = z
  .object({
    attached: z.boolean().describe('True: the game now has a PGN attached (this one, or the one it already had)'),
    id: z.string().describe('The game id'),
    refId: z.string().describe('Id of the stored PGN record (SHA-256 of its text; identical texts share one record)'),
    alreadyAttached: z.boolean().describe('True when the game already had a PGN: that one was kept and the new text ignored'),
    note: z.string().describe('What happened and what to do next'),
  })
  .describe('Attach-PGN result');
export type AttachPgnResult = z.infer<typeof AttachPgnResult>;

export const ReviewRequestInput = z.strictObject({
  id: z.string().min(1).max(100).describe('Exact id from the list'),
  wait: z
    .number()
    .int()
    .min(0)
    .max(45)
    .default(0)
    .describe('Seconds to wait for the review to finish (0 to 45, default 0); values outside are rejected'),
});

export const ReviewAccuracies = z.object({
  accuracyWhite: z.number().describe("White's accuracy (0-100)"),
  accuracyBlack: z.number().describe("Black's accuracy (0-100)"),
  accuracyForUser: z.number().nullable().describe("The owner's accuracy; null when the owner's colour is unknown (study games)"),
});

/** 200 complete or 202 queued; one object so MCP's outputSchema stays an object. */
export const ReviewResponse = z
  .object({
    status: z.enum(['queued', 'complete']).describe('queued (HTTP 202): call again, or pass wait, to collect; complete (HTTP 200)'),
    id: z.string().describe('The game or study-game id'),
    alreadyReviewed: z.boolean().optional().describe('On complete: true when the review existed before this call (nothing was spent)'),
    review: ReviewAccuracies.optional().describe('On complete: the accuracies; details via get_game / get_game_analysis'),
    note: z.string().describe('What happened and what to do next'),
  })
  .describe('Review request outcome');
export type ReviewResponse = z.infer<typeof ReviewResponse>;
