import { Stats, StatsInput } from '../../schemas/aggregates.js';
import { isoDate, memoByOwner } from '../../src/services/common/index.js';
import { peersInsight, peersStamp } from '../../src/services/peers/index.js';
import { chessStats } from '../../src/services/stats/index.js';
import { defineTool, READ_ONLY } from '../defineTool.js';

export const getChessStats = defineTool({
  name: 'get_chess_stats',
  title: 'Get my chess stats',
  description:
    "Aggregate results over a window of the owner's games: totals by colour with win rates and score, accuracy, online vs over-the-board, performance rating, best win and worst defeat, streaks, last-10 form, weekday, opponent-strength and game-length breakdowns, top-20 opening families and monthly form. " +
    "Insights: accuracyByPhase (accuracy and mistakes per phase, from reviewed games), timeManagement (seconds per move, time trouble, losses on time, score when short of time, from clocks), openingsByEval (each family's evaluation after moves 10 and 15 from reviewed games), trend (month by month with end-of-month ratings) and atYourLevel (opening moves beside lichess peers); each figure carries the games behind it and is null without data. " +
    'Time classes are normalised: ultraBullet→bullet; classical, daily, correspondence→standard; over-the-board (fed)→standard. ' +
    'Use list_games to see the games behind a figure.',
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/stats' },
  input: StatsInput,
  output: Stats,
  annotations: READ_ONLY,
  statuses: [400, 401, 429],
  // The window's blocks are kept per version of the owner's games (chessStats); atYourLevel also changes
  // when explorer answers arrive or the lichess token changes, so the whole answer is kept per both.
  handler: (ctx, input) =>
    memoByOwner(
      ctx.store,
      ctx.user.id,
      `get_chess_stats+peers ${isoDate(ctx.clock.now())} ${JSON.stringify(input)} ${peersStamp(ctx)}`,
      () => ({ ...chessStats(ctx, input), atYourLevel: peersInsight(ctx) }),
      ['history', 'account'],
    ),
});
