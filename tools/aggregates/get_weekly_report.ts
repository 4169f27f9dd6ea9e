import { z } from 'zod';
import { NoInput } from '../../schemas/aggregates.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetWeeklyReportOutput = z.object({}).describe('Get my latest weekly report');

export const getWeeklyReport = defineTool({
  name: 'get_weekly_report',
  title: 'Get my latest weekly report',
  description:
    "The most recent weekly report (weeks end on Friday, UTC), exactly as it was frozen when generated: per source (chess.com, lichess, over-the-board) games, results, rating lines, best win and toughest defeat, plus puzzles, and a shareUrl to a readable page.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/report/latest' },
  input: NoInput,
  output: GetWeeklyReportOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 404, 429],
  handler: () => {
    throw notAvailableYet('get_weekly_report');
  },
});
