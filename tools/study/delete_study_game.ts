import { DeleteStudyResult, StudyIdInput } from '../../schemas/study.js';
import * as study from '../../src/services/study/index.js';
import { say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';

export const deleteStudyGame = defineTool({
  name: 'delete_study_game',
  title: 'Delete a study game',
  description: say`Remove one owned study game and its per-ply notes, by the exact id from list_study_games. Irreversible. The shared engine analysis of those moves and your played games are never touched. A repeat answers deleted: false.`,
  access: 'personal',
  family: 'personal',
  rest: { method: 'DELETE', path: '/api/v1/me/study/{id}' },
  input: StudyIdInput,
  output: DeleteStudyResult,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  statuses: [401, 429],
  handler: (ctx, input) => study.deleteStudyGame(ctx, input.id),
});
