import { z } from 'zod';
import { LibrarySlugInput } from '../../schemas/public.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetLibraryGameOutput = z.object({}).describe('Get one classic game');

export const getLibraryGame = defineTool({
  name: 'get_library_game',
  title: 'Get one classic game',
  description:
    "One classic game: an editorial essay (why it matters, its turning points, what to learn), source citation, canonical PGN and both players' engine accuracy. No per-ply data.",
  access: 'public',
  family: 'library',
  rest: { method: 'GET', path: '/api/v1/library/{slug}' },
  input: LibrarySlugInput,
  output: GetLibraryGameOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [404, 429],
  handler: () => {
    throw notAvailableYet('get_library_game');
  },
});
