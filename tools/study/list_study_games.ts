import { z } from 'zod';
import { NoInput } from '../../schemas/aggregates.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const ListStudyGamesOutput = z.object({}).describe('List my study collection');

export const listStudyGames = defineTool({
  name: 'list_study_games',
  title: 'List my study collection',
  description:
    "The personal study collection (games to study, separate from played games), newest first, up to 200 rows, with headers, length, opening, review status and notes count.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/study' },
  input: NoInput,
  output: ListStudyGamesOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 429],
  handler: () => {
    throw notAvailableYet('list_study_games');
  },
});
