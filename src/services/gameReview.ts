import type { GameDetail } from '../../schemas/games.js';
import type { PersonalCtx } from '../context.js';
import type { GameRow } from './gameWriter.js';

/**
 * The `review` block of game detail, from the shared analysis of the game's moves.
 * Null until the game's moves have been analysed.
 */
export function reviewSummaryFor(_ctx: PersonalCtx, row: GameRow): GameDetail['review'] {
  if (!row.movesKey) return null;
  return null;
}
