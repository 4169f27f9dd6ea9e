import { UploadStudyInput, UploadStudyResult } from '../../schemas/study.js';
import * as study from '../../src/services/study/index.js';
import { say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';

export const uploadStudyGame = defineTool({
  name: 'upload_study_game',
  title: 'Upload a game to my study collection',
  description: say`Add one PGN game (1 to 100,000 characters; headers optional, movetext required) to the study collection, for games you want to study rather than games you played (use attach_pgn for those). Deduplicated by moves: the same mainline returns the existing row (duplicate: true; note says what it kept) and its comments fill only plies that have no note yet. Comments become per-ply notes; clocks are ignored. A multi-game, moveless or unparseable PGN is ${400} saying which. 20 uploads per hour. Next: request_study_analysis with the returned id.`,
  access: 'personal',
  family: 'studyUpload',
  rest: { method: 'POST', path: '/api/v1/me/study' },
  input: UploadStudyInput,
  output: UploadStudyResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 413, 415, 429, 503],
  handler: (ctx, input) => study.uploadStudyGame(ctx, input.pgn),
});
