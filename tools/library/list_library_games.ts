import { z } from 'zod';
import { NoInput } from '../../schemas/aggregates.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const ListLibraryGamesOutput = z.object({}).describe('List the classic-games library');

export const listLibraryGames = defineTool({
  name: 'list_library_games',
  title: 'List the classic-games library',
  description:
    "About 50 published classic games (no token needed): slug, players, event, date, result, opening and a one-line summary. Pass a slug to get_library_game.",
  access: 'public',
  family: 'library',
  rest: { method: 'GET', path: '/api/v1/library' },
  input: NoInput,
  output: ListLibraryGamesOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [429],
  handler: () => {
    throw notAvailableYet('list_library_games');
  },
});
