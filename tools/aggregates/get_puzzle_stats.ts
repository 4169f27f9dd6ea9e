import { z } from 'zod';
import { NoInput } from '../../schemas/aggregates.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetPuzzleStatsOutput = z.object({}).describe('Get my puzzle stats');

export const getPuzzleStats = defineTool({
  name: 'get_puzzle_stats',
  title: 'Get my puzzle stats',
  description:
    "Puzzle activity: a 12-week solve summary with win rate, volume bucketed by day, week or month, the lichess puzzle rating series, and the chess.com tactics peak (peak-only: chess.com publishes no current value).",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/puzzles' },
  input: NoInput,
  output: GetPuzzleStatsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 429],
  handler: () => {
    throw notAvailableYet('get_puzzle_stats');
  },
});
