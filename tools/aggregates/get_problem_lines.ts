import { NoInput, ProblemLines } from '../../schemas/aggregates.js';
import { problemLines } from '../../src/services/stats/index.js';
import { defineTool, READ_ONLY } from '../defineTool.js';

export const getProblemLines = defineTool({
  name: 'get_problem_lines',
  title: 'Get my problem opening lines',
  description:
    "Opening lines (6 to 24 plies, per colour) where the owner scores at least 8 percentage points below their colour baseline over at least 5 games, ranked by struggle index = drop × log2(games). " +
    'Built from the SAN of online games with moves (over-the-board games have none). Each line is reported once, at its most informative length: the length with the highest struggle index, the longest when tied (where the games diverge), so no line is a prefix of another. ' +
    "Pass a line's lineMoves to list_games (lineMoves=) to see its games, or open exampleGameIds with get_game.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/problem-lines' },
  input: NoInput,
  output: ProblemLines,
  annotations: READ_ONLY,
  statuses: [401, 429],
  handler: (ctx) => problemLines(ctx),
});
