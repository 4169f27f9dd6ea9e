import { AttachPgnInput, AttachPgnResult } from '../../schemas/review.js';
import { attachPgn as attach } from '../../src/services/games/index.js';
import { say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';

export const attachPgn = defineTool({
  name: 'attach_pgn',
  title: 'Attach a PGN to my game',
  description: say`Attach the full PGN of an owned game that has no moves stored (e.g. an over-the-board game), so it can be reviewed. The PGN must be one game with moves, consistent with the stored game (your colour where the player names say it, the recorded result, and the recorded opening line as its first moves); otherwise ${400} says why. Only the attachment changes; an already attached game keeps its PGN (alreadyAttached: true). ${409} means the game changed at the same moment: fetch it again and retry. Then call request_game_review. 20 per hour.`,
  access: 'personal',
  family: 'attach',
  rest: { method: 'POST', path: '/api/v1/me/games/{id}' },
  input: AttachPgnInput,
  output: AttachPgnResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 404, 409, 413, 415, 429],
  handler: (ctx, input) => attach(ctx, input.id, input.pgn),
});
