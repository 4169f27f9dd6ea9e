import { GameDetail, GameIdInput } from '../../schemas/games.js';
import { gameDetail } from '../../src/services/review/index.js';
import { defineTool, READ_ONLY } from '../defineTool.js';

export const getGame = defineTool({
  name: 'get_game',
  title: 'Get one game',
  description:
    'One owned game: the list row plus its mainline moves (never invented: movesSource says whether they come from a stored PGN, only the recorded opening, or nothing — then attach_pgn can add them), the PGN, and the engine review summary when one exists (accuracies, classification counts, critical moments). Per-ply evaluations come from get_game_analysis.',
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/games/{id}' },
  input: GameIdInput,
  output: GameDetail,
  annotations: READ_ONLY,
  statuses: [401, 404, 429],
  handler: (ctx, input) => gameDetail(ctx, input.id),
});
