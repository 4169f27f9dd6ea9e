import { Focus, SetFocusInput } from '../../schemas/coaching.js';
import * as focus from '../../src/services/coaching/index.js';
import { say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';

export const setTrainingFocus = defineTool({
  name: 'set_training_focus',
  title: 'Set, retitle or resolve a training focus',
  description: say`{title} creates a focus (at most 3 active: a 4th is ${409} naming the active ones, so resolve one first); {focusId, title} retitles an active focus; {focusId, resolve: true} resolves it. Focuses are never deleted. Returns the focus. Coaching writes share 60 per hour.`,
  access: 'personal',
  family: 'coachingWrite',
  rest: { method: 'POST', path: '/api/v1/me/coaching/focus' },
  input: SetFocusInput,
  output: Focus,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  statuses: [400, 401, 404, 409, 413, 415, 429, 503],
  handler: (ctx, input) => focus.setTrainingFocus(ctx, input),
});
