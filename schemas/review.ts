import { z } from 'zod';

export const PGN_MAX_CHARS = 100_000;

export const AttachPgnInput = z.strictObject({
  id: z.string().min(1).max(100).describe('Exact game id from list_games'),
  pgn: z.string().min(1).max(PGN_MAX_CHARS).describe('One complete PGN game with movetext (1 to 100,000 characters)'),
});

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
