import { z } from 'zod';
import { NoInput } from '../../schemas/aggregates.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetCoachingStateOutput = z.object({}).describe('Get the coaching state');

export const getCoachingState = defineTool({
  name: 'get_coaching_state',
  title: 'Get the coaching state',
  description:
    "Everything agreed in coaching, in one call: active and recently resolved training focuses, the entry log (newest first, with a cursor), open assignments, a saved-position summary and lastSessionAt. Read it at the start of every coaching session.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/coaching/state' },
  input: NoInput,
  output: GetCoachingStateOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 429],
  handler: () => {
    throw notAvailableYet('get_coaching_state');
  },
});
