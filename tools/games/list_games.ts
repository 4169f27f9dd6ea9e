import { GameList, ListGamesInput } from '../../schemas/games.js';
import * as games from '../../src/services/games/index.js';
import { defineTool, READ_ONLY } from '../defineTool.js';

export const listGames = defineTool({
  name: 'list_games',
  title: 'List my games',
  description:
    "A page (50 a page) of the owner's games, newest first by default, with filters for provider, result, colour, time class, dates, length, opening prefix, opponent, an opening line of SAN moves (lineMoves, as get_problem_lines gives) and free text. Each row has the game id to pass to get_game, get_game_analysis and get_critical_moments. `filters` echoes what was applied; a page past the last falls back to page 1.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/games' },
  input: ListGamesInput,
  output: GameList,
  annotations: READ_ONLY,
  statuses: [400, 401, 429],
  handler: (ctx, input) => games.listGames(ctx, input),
});
