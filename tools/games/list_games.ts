import { z } from 'zod';
import { ListGamesInput } from '../../schemas/games.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const ListGamesOutput = z.object({}).describe('List my games');

export const listGames = defineTool({
  name: 'list_games',
  title: 'List my games',
  description:
    "A page (50 a page) of the owner's games, newest first by default, with filters for provider, result, colour, time class, dates, length, opening prefix, opponent, an opening line of SAN moves (lineMoves, as get_problem_lines gives) and free text. Each row has the game id to pass to get_game, get_game_analysis and get_critical_moments.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/games' },
  input: ListGamesInput,
  output: ListGamesOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 429],
  handler: () => {
    throw notAvailableYet('list_games');
  },
});
