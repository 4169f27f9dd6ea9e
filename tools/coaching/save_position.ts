import { Position, SavePositionInput } from '../../schemas/coaching.js';
import * as positions from '../../src/services/coaching/positions.js';
import { defineTool } from '../defineTool.js';

export const savePosition = defineTool({
  name: 'save_position',
  title: 'Save a position',
  description:
    "Save a position to quiz later: a legal FEN with a label and why, or a ply of an owned reviewed game (its FEN and evaluation are copied from the review). At most 500.",
  access: 'personal',
  family: 'coachingWrite',
  rest: { method: 'POST', path: '/api/v1/me/coaching/positions' },
  input: SavePositionInput,
  output: Position,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  statuses: [400, 401, 404, 409, 413, 415, 429, 503],
  handler: (ctx, input) => positions.savePosition(ctx, input),
});
