import { z } from 'zod';
import { ListPositionsInput } from '../../schemas/coaching.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const ListSavedPositionsOutput = z.object({}).describe('List saved positions');

export const listSavedPositions = defineTool({
  name: 'list_saved_positions',
  title: 'List saved positions',
  description:
    "Saved positions, newest first, 25 a page; filter by focusId or dueForQuiz (never quizzed, or the latest quiz wrong).",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/coaching/positions' },
  input: ListPositionsInput,
  output: ListSavedPositionsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 429],
  handler: () => {
    throw notAvailableYet('list_saved_positions');
  },
});
