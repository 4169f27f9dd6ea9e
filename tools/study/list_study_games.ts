import { NoInput } from '../../schemas/aggregates.js';
import { StudyList } from '../../schemas/study.js';
import * as study from '../../src/services/study.js';
import { defineTool } from '../defineTool.js';

export const listStudyGames = defineTool({
  name: 'list_study_games',
  title: 'List my study collection',
  description:
    "The personal study collection (games to study, separate from played games), newest first, up to 200 rows, with headers, length, opening, review status and notes count.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/study' },
  input: NoInput,
  output: StudyList,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 429],
  handler: (ctx) => study.listStudyGames(ctx),
});
