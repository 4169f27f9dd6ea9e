import { z } from 'zod';
import { TargetedTnrInput } from '../../schemas/public.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const EstimateRound1Output = z.object({}).describe('Estimate round-1 pairings');

export const estimateRound1 = defineTool({
  name: 'estimate_round1',
  title: 'Estimate round-1 pairings',
  description:
    "An estimate of round-1 pairings from the seed list (top half against bottom half). Colours are unreliable. target returns just that player's board.",
  access: 'public',
  family: 'tournament',
  rest: { method: 'GET', path: '/api/v1/tournaments/{tnr}/round1' },
  input: TargetedTnrInput,
  output: EstimateRound1Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  statuses: [400, 404, 429, 502, 503],
  handler: () => {
    throw notAvailableYet('estimate_round1');
  },
});
