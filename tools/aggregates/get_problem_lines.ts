import { z } from 'zod';
import { NoInput } from '../../schemas/aggregates.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetProblemLinesOutput = z.object({}).describe('Get my problem opening lines');

export const getProblemLines = defineTool({
  name: 'get_problem_lines',
  title: 'Get my problem opening lines',
  description:
    "Opening lines (6 to 24 plies, per colour) where the owner scores at least 8 points below their colour baseline over at least 5 games, ranked by struggle index = drop x log2(games). Each line's lineMoves can be passed to list_games to see the games.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/problem-lines' },
  input: NoInput,
  output: GetProblemLinesOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 429],
  handler: () => {
    throw notAvailableYet('get_problem_lines');
  },
});
