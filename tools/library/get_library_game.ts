import { LibraryGameDetail, GetLibraryGameInput } from '../../schemas/library.js';
import { getLibraryGame as getGame } from '../../src/services/library/index.js';
import { defineTool } from '../defineTool.js';

export const getLibraryGame = defineTool({
  name: 'get_library_game',
  title: 'Get one classic game',
  description:
    "One classic game: an editorial essay (why it matters, its turning points, what to learn), source citation, canonical PGN and both players' engine accuracy from this project's review pipeline (null until computed). No per-ply data.",
  access: 'public',
  family: 'library',
  rest: { method: 'GET', path: '/api/v1/library/{slug}' },
  input: GetLibraryGameInput,
  output: LibraryGameDetail,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [404, 429],
  handler: (_ctx, input) => getGame(input.slug),
});
