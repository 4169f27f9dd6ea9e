import type { GameDetail } from '../../../schemas/games.js';
import type { PersonalCtx } from '../../context.js';
import type { GameRow } from '../games/gameWriter.js';
import { ownerReview } from './records.js';
import { summarizeReview } from './summary.js';

/**
 * The `review` block of game detail, from the owner's stored review (never per-ply data).
 * Null until this owner's review of the game's moves has completed.
 */
export function reviewSummaryFor(ctx: PersonalCtx, row: Pick<GameRow, 'movesKey' | 'colour'>): GameDetail['review'] {
  const review = ownerReview(ctx.store, ctx.user.id, row.movesKey);
  return review ? summarizeReview(review, row.colour) : null;
}
