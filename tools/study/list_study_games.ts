import { NoInput } from '../../schemas/aggregates.js';
import { StudyList } from '../../schemas/study.js';
import * as study from '../../src/services/study/index.js';
import { defineTool } from '../defineTool.js';

export const listStudyGames = defineTool({
  name: 'list_study_games',
  title: 'List my study collection',
  description:
    "The personal study collection (games to study, separate from played games), newest first, up to 200 rows: players, event, date, result, all headers, length, opening, engine review status with both accuracies when reviewed, and how many plies carry a note. total counts the whole collection.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/study' },
  input: NoInput,
  output: StudyList,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 429],
  handler: (ctx) => study.listStudyGames(ctx),
});
