import { AddEntryInput, Entry } from '../../schemas/coaching.js';
import * as entries from '../../src/services/coaching/index.js';
import { say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';

export const addCoachingEntry = defineTool({
  name: 'add_coaching_entry',
  title: 'Append a coaching entry',
  description: say`Append to the coaching log (append-only): kind reflection, note, assignment, result or session; body 1 to 2000 characters. An assignment starts open (or pass status). With assignmentId and status completed|skipped, any kind but assignment closes that open assignment (${409} if already closed). A result with positionId and correct (bool) records a quiz of a saved position: its last-quizzed time is stamped and its quiz history grows. focusId ties the entry to a focus. Every id must be yours (${404} otherwise). Coaching writes share 60 per hour.`,
  access: 'personal',
  family: 'coachingWrite',
  rest: { method: 'POST', path: '/api/v1/me/coaching/entries' },
  input: AddEntryInput,
  output: Entry,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  statuses: [400, 401, 404, 409, 413, 415, 429, 503],
  handler: (ctx, input) => entries.addCoachingEntry(ctx, input),
});
