import { z } from 'zod';
import { RatingChangeInput } from '../../schemas/public.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const CalculateEcfRatingChangeOutput = z.object({}).describe('Calculate an ECF rating change');

export const calculateEcfRatingChange = defineTool({
  name: 'calculate_ecf_rating_change',
  title: 'Calculate an ECF rating change',
  description:
    "The English Chess Federation monthly rating change for a list of games, by the ECF's K-rating method: change, new rating, K, the monthly cap and each game's expected score. Arithmetic, not an official figure.",
  access: 'public',
  family: 'calculator',
  rest: { method: 'GET', path: '/api/v1/fed/rating-change' },
  input: RatingChangeInput,
  output: CalculateEcfRatingChangeOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 429],
  handler: () => {
    throw notAvailableYet('calculate_ecf_rating_change');
  },
});
