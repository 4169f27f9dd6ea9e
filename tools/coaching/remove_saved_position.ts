import { PositionIdInput, RemovePositionResult } from '../../schemas/coaching.js';
import * as positions from '../../src/services/coaching/index.js';
import { defineTool } from '../defineTool.js';

export const removeSavedPosition = defineTool({
  name: 'remove_saved_position',
  title: 'Remove a saved position',
  description:
    "Delete one owned saved position by its exact id from list_saved_positions. A repeat answers removed: false.",
  access: 'personal',
  family: 'coachingWrite',
  rest: { method: 'DELETE', path: '/api/v1/me/coaching/positions/{id}' },
  input: PositionIdInput,
  output: RemovePositionResult,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  statuses: [401, 429, 503],
  handler: (ctx, input) => positions.removeSavedPosition(ctx, input.id),
});
