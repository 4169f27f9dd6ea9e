import { z } from 'zod';
import { ReviewRequestInput } from '../../schemas/review.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const RequestGameReviewOutput = z.object({}).describe('Request an engine review of my game');

export const requestGameReview = defineTool({
  name: 'request_game_review',
  title: 'Request an engine review of my game',
  description:
    "Queue a Stockfish review of an owned game with moves (attach_pgn first if it has none). Answers 202 queued, or 200 complete when the review finishes within wait (0 to 45 s). Calling again with the same id collects the finished review; a reviewed game answers at once with alreadyReviewed: true and costs nothing. 20 newly queued reviews per hour, shared with study reviews.",
  access: 'personal',
  family: 'review',
  rest: { method: 'POST', path: '/api/v1/me/games/{id}/review' },
  input: ReviewRequestInput,
  output: RequestGameReviewOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [202, 400, 401, 404, 429, 503],
  handler: () => {
    throw notAvailableYet('request_game_review');
  },
});
