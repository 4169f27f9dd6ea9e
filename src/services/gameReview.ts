import type { GameDetail } from '../../schemas/games.js';
import { parseTimeControl } from '../chess/clocks.js';
import { summarizeReview } from './review/summary.js';
import type { PersonalCtx } from '../context.js';
import { analysisRow, parseClocks } from './analysis.js';
import type { GameRow } from './gameWriter.js';

/**
 * The `review` block of game detail, from the shared analysis of the game's moves
 * (never per-ply data). Null until the game's moves have been analysed.
 */
export function reviewSummaryFor(ctx: PersonalCtx, row: GameRow): GameDetail['review'] {
  const analysis = analysisRow(ctx, row.movesKey);
  if (!analysis) return null;
  return summarizeReview(analysis, row.colour, { clocks: parseClocks(row.clocks), timeControl: parseTimeControl(row.timeControl) });
}
