import { z } from 'zod';
import { AttachPgnInput } from '../../schemas/review.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const AttachPgnOutput = z.object({}).describe('Attach a PGN to my game');

export const attachPgn = defineTool({
  name: 'attach_pgn',
  title: 'Attach a PGN to my game',
  description:
    "Attach the full PGN of an owned game that has no moves stored (e.g. an over-the-board game), so it can be reviewed. The PGN must be one game with moves, consistent with the stored game. Only the attachment changes; an already attached game keeps its PGN (alreadyAttached: true). Then call request_game_review. 20 per hour.",
  access: 'personal',
  family: 'attach',
  rest: { method: 'POST', path: '/api/v1/me/games/{id}' },
  input: AttachPgnInput,
  output: AttachPgnOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 404, 409, 413, 415, 429],
  handler: () => {
    throw notAvailableYet('attach_pgn');
  },
});
