import { z } from 'zod';
import { StudyIdInput } from '../../schemas/study.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const DeleteStudyGameOutput = z.object({}).describe('Delete a study game');

export const deleteStudyGame = defineTool({
  name: 'delete_study_game',
  title: 'Delete a study game',
  description:
    "Remove one owned study game and its per-ply notes. Irreversible; played games are never touched.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'DELETE', path: '/api/v1/me/study/{id}' },
  input: StudyIdInput,
  output: DeleteStudyGameOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  statuses: [401, 404, 429],
  handler: () => {
    throw notAvailableYet('delete_study_game');
  },
});
