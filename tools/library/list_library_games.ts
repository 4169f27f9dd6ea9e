import { ListLibraryGamesInput, ListLibraryGamesOutput } from '../../schemas/library.js';
import { listLibraryGames as listGames } from '../../src/services/library/index.js';
import { defineTool } from '../defineTool.js';

export const listLibraryGames = defineTool({
  name: 'list_library_games',
  title: 'List the classic-games library',
  description:
    'The classic-games library, about sixty annotated games from 1834 to 2017 (no token needed), oldest first: slug, players, event, date, result, opening, era, themes and a one-line summary. Narrow by era or theme. Pass a slug to get_library_game.',
  access: 'public',
  family: 'library',
  rest: { method: 'GET', path: '/api/v1/library' },
  input: ListLibraryGamesInput,
  output: ListLibraryGamesOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 429],
  handler: (_ctx, input) => listGames(input),
});
