import type { StoredAnalysis } from '../../chess/engineOutput.js';
import type { Store } from '../../store/db.js';
import { copyReviewAccuracy } from './queue.js';
import { analysisRow, grantReview, saveAnalysis } from './records.js';

/**
 * Stores a review made elsewhere as the owner's review of its moves: a source's own (lichess's server analysis,
 * src/sources/lichess/review.ts), or engine output shipped with the package (the demo's, src/demo/shippedReviews.ts), exactly as a finished engine review is stored (records.ts), so every view reads
 * it alike; no engine runs. Called inside the sync's batch transaction, so the game and its review commit together.
 *
 * The first review stored for a move sequence is the one its owners read (saveAnalysis: first writer wins): a
 * game whose moves already have an engine review keeps that one, and a later request_game_review of a game
 * reviewed here answers `alreadyReviewed` without starting the engine (the spec offers no re-analysis).
 */
export function storeSourceReview(store: Store, userId: string, movesKey: string, review: StoredAnalysis, at: string): void {
  saveAnalysis(store, analysisRow(movesKey, { ...review, analysedAt: review.analysedAt || at }));
  grantReview(store, userId, movesKey, at);
  copyReviewAccuracy(store, userId, movesKey);
}
