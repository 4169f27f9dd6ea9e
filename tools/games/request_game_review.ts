import { ReviewRequestInput, ReviewResponse } from '../../schemas/review.js';
import { gameReviewSubject, requestReview } from '../../src/services/review/index.js';
import { onlyHttp, say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';
import { ConfigSchema } from '../../src/config.js';

// The budgets a review gets when the server sets none: the configuration's own defaults, so the text follows them.
const ENGINE = ConfigSchema.shape.engine.parse({});
// Figures interpolated into say`…` as the same text on both surfaces (a bare number there is an HTTP status).
const figure = (n: number) => ({ mcp: n.toLocaleString('en-US'), http: n.toLocaleString('en-US') });

export const requestGameReview = defineTool({
  name: 'request_game_review',
  title: 'Request an engine review of my game',
  description: say`Queue a Stockfish review of an owned game with moves (attach_pgn first if it has none). Answers status queued${onlyHttp(' (202)')}, or complete${onlyHttp(' (200)')} when the review finishes within wait (0 to 45 s). Calling again with the same id collects the finished review; a reviewed game answers at once with alreadyReviewed: true and costs nothing. 20 newly queued reviews per hour, shared with study reviews. Fixed node budgets (default ${figure(ENGINE.nodesPerPosition)} nodes a position, MultiPV ${figure(ENGINE.multiPv)}; a deeper look at ${figure(ENGINE.deepNodes)} where that cannot settle), recorded, so a review is reproducible; accuracies use lichess's published method.`,
  access: 'personal',
  family: 'review',
  rest: { method: 'POST', path: '/api/v1/me/games/{id}/review' },
  input: ReviewRequestInput,
  output: ReviewResponse,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [202, 400, 401, 404, 429, 502, 503],
  handler: (ctx, input) => requestReview(ctx, gameReviewSubject(ctx, input.id), input.wait),
});
