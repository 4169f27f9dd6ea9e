import { z } from 'zod';
import { ReviewRequestInput } from '../../schemas/review.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const RequestStudyAnalysisOutput = z.object({}).describe('Request an engine review of a study game');

export const requestStudyAnalysis = defineTool({
  name: 'request_study_analysis',
  title: 'Request an engine review of a study game',
  description:
    "Exactly as request_game_review, for a study game: 202 queued or 200 complete within wait (0 to 45 s); already reviewed is free. Shares the 20-per-hour review allowance with game reviews.",
  access: 'personal',
  family: 'review',
  rest: { method: 'POST', path: '/api/v1/me/study/{id}/review' },
  input: ReviewRequestInput,
  output: RequestStudyAnalysisOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [202, 400, 401, 404, 429, 503],
  handler: () => {
    throw notAvailableYet('request_study_analysis');
  },
});
