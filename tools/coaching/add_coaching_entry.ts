import { z } from 'zod';
import { AddEntryInput } from '../../schemas/coaching.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const AddCoachingEntryOutput = z.object({}).describe('Append a coaching entry');

export const addCoachingEntry = defineTool({
  name: 'add_coaching_entry',
  title: 'Append a coaching entry',
  description:
    "Append to the coaching log: reflection, note, assignment (starts open), result or session. With assignmentId and status completed|skipped it closes an open assignment; a result with positionId and correct records a quiz of a saved position. Append-only.",
  access: 'personal',
  family: 'coachingWrite',
  rest: { method: 'POST', path: '/api/v1/me/coaching/entries' },
  input: AddEntryInput,
  output: AddCoachingEntryOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  statuses: [400, 401, 404, 409, 413, 415, 429, 503],
  handler: () => {
    throw notAvailableYet('add_coaching_entry');
  },
});
