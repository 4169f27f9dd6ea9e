import { z } from 'zod';
import { StatsInput } from '../../schemas/aggregates.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetChessStatsOutput = z.object({}).describe('Get my chess stats');

export const getChessStats = defineTool({
  name: 'get_chess_stats',
  title: 'Get my chess stats',
  description:
    "Aggregate results over a window of the owner's games: totals by colour with win rates, accuracy, online vs over-the-board, performance rating, best win and worst defeat, streaks, last-10 form, weekday and opponent-strength and game-length breakdowns, top openings and monthly form. Filter by range, provider, timeClass and opening family.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/stats' },
  input: StatsInput,
  output: GetChessStatsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 429],
  handler: () => {
    throw notAvailableYet('get_chess_stats');
  },
});
