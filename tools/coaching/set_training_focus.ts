import { z } from 'zod';
import { SetFocusInput } from '../../schemas/coaching.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const SetTrainingFocusOutput = z.object({}).describe('Set, retitle or resolve a training focus');

export const setTrainingFocus = defineTool({
  name: 'set_training_focus',
  title: 'Set, retitle or resolve a training focus',
  description:
    "{title} creates a focus (at most 3 active), {focusId, title} retitles it, {focusId, resolve: true} resolves it. Focuses are never deleted.",
  access: 'personal',
  family: 'coachingWrite',
  rest: { method: 'POST', path: '/api/v1/me/coaching/focus' },
  input: SetFocusInput,
  output: SetTrainingFocusOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  statuses: [400, 401, 404, 409, 413, 415, 429, 503],
  handler: () => {
    throw notAvailableYet('set_training_focus');
  },
});
