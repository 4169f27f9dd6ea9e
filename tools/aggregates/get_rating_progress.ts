import { z } from 'zod';
import { RatingsInput } from '../../schemas/aggregates.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetRatingProgressOutput = z.object({}).describe('Get my rating progress');

export const getRatingProgress = defineTool({
  name: 'get_rating_progress',
  title: 'Get my rating progress',
  description:
    "Rating lines over a window, one per provider and time class (including fed, the ECF over-the-board rating): dated points (at most 60, evenly downsampled), start (seeded from the standing rating before the window), end and delta.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/ratings' },
  input: RatingsInput,
  output: GetRatingProgressOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 429],
  handler: () => {
    throw notAvailableYet('get_rating_progress');
  },
});
