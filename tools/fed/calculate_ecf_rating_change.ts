import { z } from 'zod';
import { RatingChangeInput } from '../../schemas/public.js';
import { calculateRatingChange } from '../../src/services/fed/index.js';
import { say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';

const Result = z.enum(['win', 'draw', 'loss']).describe('The result from your side');

const CalculateEcfRatingChangeOutput = z
  .object({
    currentRating: z.number().int().describe('The rating you sent (R0)'),
    change: z.number().describe('k × (score − expectedScore), two decimals'),
    newRating: z.number().int().describe('currentRating + change, rounded to the nearest whole number (halves up)'),
    k: z.number().describe('The K used: the base K, lowered to kMax when the monthly cap bites'),
    kMax: z.number().describe('700 / gamesInMonth: the largest K the month allows'),
    monthlyCapApplied: z.boolean().describe('True when kMax was below the base K and so became K'),
    baseK: z.number().int().describe('20, or 40 for a junior (under 18) whose month is a gain, before the monthly cap'),
    isJunior: z.boolean().describe('True when age was sent and is under 18'),
    gamesInMonth: z.number().int().describe('gamesThisMonth, or the number of games sent'),
    score: z.number().describe('W: your total score in the games sent'),
    expectedScore: z.number().describe('We: the sum of the per-game expected scores from FIDE table 8.1(b)'),
    games: z
      .array(
        z.object({
          opponentRating: z.number().int().describe('The opponent rating you sent'),
          result: Result,
          difference: z.number().int().describe('Opponent rating − your rating, limited to ±400'),
          expectedScore: z.number().describe('Your expected score for this game from FIDE table 8.1(b)'),
          contribution: z.number().describe('k × (result − expectedScore): this game’s share of the change'),
        }),
      )
      .describe('One row per game, in the order sent'),
    caveats: z.array(z.string()).describe('Limits of this answer: arithmetic not an official figure; K-rating only; adjustment zero'),
  })
  .describe('An ECF monthly rating change worked out by the K-rating method');

export const calculateEcfRatingChange = defineTool({
  name: 'calculate_ecf_rating_change',
  title: 'Calculate an ECF rating change',
  description: say`The English Chess Federation monthly rating change for a list of games, by the ECF's K-rating method: change, new rating, K, the monthly cap and each game's expected score. Arithmetic, not an official figure. Send games as "1850 w, 2010 d, 1700 loss"; a bad entry answers ${400} naming it.`,
  access: 'public',
  family: 'calculator',
  rest: { method: 'GET', path: '/api/v1/fed/rating-change' },
  input: RatingChangeInput,
  output: CalculateEcfRatingChangeOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 429],
  handler: (_ctx, input) => calculateRatingChange(input),
});
