import { AddEntryInput, Entry } from '../../schemas/coaching.js';
import * as entries from '../../src/services/coaching/entries.js';
import { defineTool } from '../defineTool.js';

export const addCoachingEntry = defineTool({
  name: 'add_coaching_entry',
  title: 'Append a coaching entry',
  description:
    "Append to the coaching log: reflection, note, assignment (starts open), result or session. With assignmentId and status completed|skipped it closes an open assignment; a result with positionId and correct records a quiz of a saved position. Append-only.",
  access: 'personal',
  family: 'coachingWrite',
  rest: { method: 'POST', path: '/api/v1/me/coaching/entries' },
  input: AddEntryInput,
  output: Entry,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  statuses: [400, 401, 404, 409, 413, 415, 429, 503],
  handler: (ctx, input) => entries.addCoachingEntry(ctx, input),
});
