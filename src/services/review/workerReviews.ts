import { and, eq, ne } from 'drizzle-orm';
import type { Store } from '../../store/db.js';
import { analyses, ownerReviews } from '../../store/schema/index.js';
import { copyReviewAccuracy } from './queue.js';
import { engineOutput, grantReview, saveAnalysis, type NewAnalysisRow } from './records.js';

/**
 * Stores a review worker's review (issue 36) as the owner's review of its moves, inside the caller's transaction.
 * The deeper review wins, never the other way: a worker's replaces a stored engine review made at fewer nodes per
 * position (the local engines' quick profile); a lichess-imported review is lichess's own and is never replaced,
 * nor is another worker's. The analyses row is shared by every owner holding those moves (keyed by moves alone
 * until reviews are keyed per owner), so a row another owner already reads is left as it is: one owner's worker
 * never changes another owner's review. Answers whether the worker's review is the one stored.
 */
export function storeWorkerReview(store: Store, userId: string, movesKey: string, row: NewAnalysisRow, at: string): boolean {
  const existing = engineOutput(store, movesKey);
  let stored = false;
  if (!existing) {
    saveAnalysis(store, row);
    stored = true;
  } else if (!existing.source && !existing.worker && existing.budget.nodesPerPosition < (row.nodesPerPosition ?? 0) && !readByAnotherOwner(store, userId, movesKey)) {
    const { movesKey: _key, ...fields } = row;
    store.db.update(analyses).set(fields).where(eq(analyses.movesKey, movesKey)).run();
    stored = true;
  }
  grantReview(store, userId, movesKey, at);
  copyReviewAccuracy(store, userId, movesKey);
  return stored;
}

function readByAnotherOwner(store: Store, userId: string, movesKey: string): boolean {
  return Boolean(
    store.db
      .select({ u: ownerReviews.userId })
      .from(ownerReviews)
      .where(and(eq(ownerReviews.movesKey, movesKey), ne(ownerReviews.userId, userId)))
      .get(),
  );
}

