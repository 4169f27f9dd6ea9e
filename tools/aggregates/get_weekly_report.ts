import { NoInput, WeeklyReport } from '../../schemas/aggregates.js';
import { latestReport } from '../../src/services/reports/index.js';
import { say } from '../outcomes.js';
import { defineTool, READ_ONLY } from '../defineTool.js';

export const getWeeklyReport = defineTool({
  name: 'get_weekly_report',
  title: 'Get my latest weekly report',
  description:
    'The most recent weekly report, exactly as it was frozen when generated. A week runs Saturday 00:00 to Friday 24:00 UTC and is named by its Friday (weekEnd); its report is generated once the week closes and never changes afterwards, even when older games sync later. ' +
    'Per source (siteA chess.com, siteB lichess, fed over-the-board): games, results, rating lines over the week, best win and toughest defeat (the loss to the lowest-rated opponent); plus puzzles. ' +
    say`shareUrl opens the same report as a readable page anyone with the link can see. Before the first report is generated the answer is ${404} (the message says when the next is due); use get_chess_stats for live figures.`,
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/report/latest' },
  input: NoInput,
  output: WeeklyReport,
  annotations: READ_ONLY,
  statuses: [401, 404, 429],
  handler: (ctx) => latestReport(ctx),
});
