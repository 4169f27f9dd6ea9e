import { z } from 'zod';
import { TargetedTnrInput } from '../../schemas/public.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const EstimatePairingsOutput = z.object({}).describe('Estimate the next round pairings');

export const estimatePairings = defineTool({
  name: 'estimate_pairings',
  title: 'Estimate the next round pairings',
  description:
    "An estimate of the next round of a Swiss tournament by the FIDE Dutch system; target adds a what-if table of that player's likely opponent and colour for each result of their current game.",
  access: 'public',
  family: 'tournament',
  rest: { method: 'GET', path: '/api/v1/tournaments/{tnr}/pairings' },
  input: TargetedTnrInput,
  output: EstimatePairingsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  statuses: [400, 404, 409, 429, 502, 503],
  handler: () => {
    throw notAvailableYet('estimate_pairings');
  },
});
