import { z } from 'zod';

export const TnrInput = z.object({
  tnr: z
    .string()
    .min(1)
    .max(300)
    .describe('chess-results tournament number (digits), or over MCP a full chess-results.com tournament URL from which only the number is taken'),
});

export const TargetedTnrInput = TnrInput.extend({
  target: z.string().min(1).max(100).optional().describe('Player name, case-insensitive'),
});

export const RatingChangeInput = z.object({
  currentRating: z.number().int().min(0).max(3500).describe('Current ECF rating (four-digit scale)'),
  games: z
    .string()
    .min(1)
    .max(5000)
    .describe('Comma-separated "opponent rating then result" entries, e.g. "1850 w, 2010 d, 1700 loss"; results win|draw|loss, w|d|l or 1|=|0; at most 100'),
  age: z.number().int().min(0).max(120).optional().describe('Age in years; only under 18 matters (a gaining junior moves at K = 40); omit for an adult'),
  gamesThisMonth: z.number().int().min(1).max(1000).optional().describe('All rated games in the rating month when more than listed; the 700-point monthly cap divides by it'),
});
