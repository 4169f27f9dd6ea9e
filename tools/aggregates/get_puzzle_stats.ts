import { NoInput, PuzzleStats } from '../../schemas/aggregates.js';
import { puzzleStats } from '../../src/services/stats/index.js';
import { defineTool, READ_ONLY } from '../defineTool.js';

export const getPuzzleStats = defineTool({
  name: 'get_puzzle_stats',
  title: 'Get my puzzle stats',
  description:
    'Puzzle activity: a 12-week solve summary (attempts, solved, win rate), training volume over the whole recorded history bucketed by day (up to 31 days), week (up to 26 weeks) or month, ' +
    'the lichess (siteB) puzzle rating series with its current value, and the chess.com (siteA) tactics peak. The chess.com figure is peak-only (peakOnly: true): chess.com publishes no current tactics rating.',
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/puzzles' },
  input: NoInput,
  output: PuzzleStats,
  annotations: READ_ONLY,
  statuses: [401, 429],
  handler: (ctx) => puzzleStats(ctx),
});
