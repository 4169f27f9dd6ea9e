import { z } from 'zod';
import { GameIdInput } from '../../schemas/games.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetGameOutput = z.object({}).describe('Get one game');

export const getGame = defineTool({
  name: 'get_game',
  title: 'Get one game',
  description:
    "One owned game: the list row plus its mainline moves (never invented: movesSource says whether they come from a stored PGN, only the recorded opening, or nothing), the PGN, and the engine review summary when one exists (accuracies, classification counts, critical moments). Per-ply evaluations come from get_game_analysis.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/games/{id}' },
  input: GameIdInput,
  output: GetGameOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 404, 429],
  handler: () => {
    throw notAvailableYet('get_game');
  },
});
