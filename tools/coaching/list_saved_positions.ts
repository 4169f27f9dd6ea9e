import { ListPositionsInput, PositionList } from '../../schemas/coaching.js';
import * as positions from '../../src/services/coaching/index.js';
import { defineTool } from '../defineTool.js';

export const listSavedPositions = defineTool({
  name: 'list_saved_positions',
  title: 'List saved positions',
  description:
    "Saved positions, newest first, 25 a page; filter by focusId or dueForQuiz (never quizzed, or the latest quiz wrong).",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/coaching/positions' },
  input: ListPositionsInput,
  output: PositionList,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 429],
  handler: (ctx, input) => positions.listSavedPositions(ctx, input),
});
