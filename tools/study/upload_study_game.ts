import { UploadStudyInput, UploadStudyResult } from '../../schemas/study.js';
import * as study from '../../src/services/study.js';
import { defineTool } from '../defineTool.js';

export const uploadStudyGame = defineTool({
  name: 'upload_study_game',
  title: 'Upload a game to my study collection',
  description:
    "Add one PGN game to the study collection. Deduplicated by moves: the same mainline returns the existing row (keeping its analysis) and its comments fill plies that have no note. 20 uploads per hour.",
  access: 'personal',
  family: 'studyUpload',
  rest: { method: 'POST', path: '/api/v1/me/study' },
  input: UploadStudyInput,
  output: UploadStudyResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 413, 415, 429, 503],
  handler: (ctx, input) => study.uploadStudyGame(ctx, input.pgn),
});
