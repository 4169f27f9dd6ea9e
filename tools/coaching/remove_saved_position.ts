import { z } from 'zod';
import { PositionIdInput } from '../../schemas/coaching.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const RemoveSavedPositionOutput = z.object({}).describe('Remove a saved position');

export const removeSavedPosition = defineTool({
  name: 'remove_saved_position',
  title: 'Remove a saved position',
  description:
    "Delete one owned saved position by its exact id from list_saved_positions.",
  access: 'personal',
  family: 'coachingWrite',
  rest: { method: 'DELETE', path: '/api/v1/me/coaching/positions/{id}' },
  input: PositionIdInput,
  output: RemoveSavedPositionOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  statuses: [401, 404, 429, 503],
  handler: () => {
    throw notAvailableYet('remove_saved_position');
  },
});
