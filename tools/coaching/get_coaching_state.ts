import { CoachingState, CoachingStateInput } from '../../schemas/coaching.js';
import * as state from '../../src/services/coaching/index.js';
import { defineTool } from '../defineTool.js';

export const getCoachingState = defineTool({
  name: 'get_coaching_state',
  title: 'Get the coaching state',
  description:
    "Everything agreed in coaching, in one call: active and the 10 most recently resolved training focuses, the entry log (newest first, 50 at a time; pass nextCursor back as cursor for older entries), open assignments, a saved-position summary (count and how many are due for a quiz) and lastSessionAt (the newest session entry). Read it at the start of every coaching session.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/coaching/state' },
  input: CoachingStateInput,
  output: CoachingState,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 429],
  handler: (ctx, input) => state.getCoachingState(ctx, input.cursor),
});
