import type { StoredAnalysis } from '../../chess/engineOutput.js';
import type { Store } from '../../store/db.js';
import { copyReviewAccuracy } from './queue.js';
import { analysisRow, saveReview } from './records.js';

/**
 * Stores a review made elsewhere as the owner's review of its moves: a source's own (lichess's server analysis,
 * src/sources/lichess/review.ts), or engine output shipped with the package (the demo's, src/demo/shippedReviews.ts),
 * exactly as a finished engine review is stored (records.ts), so every view reads it alike; no engine runs. Called
 * inside the sync's batch transaction, so the game and its review commit together.
 *
 * The review is this owner's alone (reviews are per owner, issue 37 item 1): another owner with the same moves
 * neither sees it nor is answered from it. Within the owner the first review stays (saveReview): a game whose
 * moves the owner already had reviewed keeps that review, and a later request_game_review of a game reviewed here
 * answers `alreadyReviewed` without starting the engine (the spec offers no re-analysis).
 */
export function storeSourceReview(store: Store, userId: string, movesKey: string, review: StoredAnalysis, at: string): void {
  saveReview(store, analysisRow(userId, movesKey, { ...review, analysedAt: review.analysedAt || at }, at));
  copyReviewAccuracy(store, userId, movesKey);
}
