import { ReviewRequestInput, ReviewResponse } from '../../schemas/review.js';
import * as study from '../../src/services/study/index.js';
import { onlyHttp, say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';

export const requestStudyAnalysis = defineTool({
  name: 'request_study_analysis',
  title: 'Request an engine review of a study game',
  description: say`Exactly as request_game_review, for a study game: status queued${onlyHttp(' (202)')} or complete${onlyHttp(' (200)')} within wait (0 to 45 s); already reviewed is free. Shares the 20-per-hour review allowance with game reviews.`,
  access: 'personal',
  family: 'review',
  rest: { method: 'POST', path: '/api/v1/me/study/{id}/review' },
  input: ReviewRequestInput,
  output: ReviewResponse,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [202, 400, 401, 404, 429, 503],
  handler: (ctx, input) => study.requestStudyAnalysis(ctx, input.id, input.wait),
});
