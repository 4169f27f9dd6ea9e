import { Position, SavePositionInput } from '../../schemas/coaching.js';
import * as positions from '../../src/services/coaching/index.js';
import { say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';

export const savePosition = defineTool({
  name: 'save_position',
  title: 'Save a position',
  description: say`Save a position to quiz later: a legal FEN (checked against the rules of chess: one king each, side not to move not in check, no pawns on the first or last rank) with label (1 to 80) and why (up to 500); or gameId (a played or study game of yours) and ply, whose FEN, evaluation and best move are copied from your review of that game (${409} until it is reviewed: request_game_review or request_study_analysis first). At most 500 positions (${409} beyond). Coaching writes share 60 per hour.`,
  access: 'personal',
  family: 'coachingWrite',
  rest: { method: 'POST', path: '/api/v1/me/coaching/positions' },
  input: SavePositionInput,
  output: Position,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  statuses: [400, 401, 404, 409, 413, 415, 429, 503],
  handler: (ctx, input) => positions.savePosition(ctx, input),
});
