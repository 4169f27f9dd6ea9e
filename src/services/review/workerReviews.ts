import { and, eq } from 'drizzle-orm';
import type { Store } from '../../store/db.js';
import { analyses } from '../../store/schema/index.js';
import { copyReviewAccuracy } from './queue.js';
import { engineOutput, saveReview, type NewAnalysisRow } from './records.js';

/**
 * Stores a review worker's review (issue 36) as the owner's review of its moves, inside the caller's transaction.
 * The deeper review wins, never the other way: a worker's replaces the owner's engine review made at fewer nodes
 * per position (the local engines' quick profile); a lichess-imported review is lichess's own and is never
 * replaced, nor is another worker's. Reviews are per owner (records.ts), so no other owner's review is touched.
 * Answers whether the worker's review is the one stored.
 */
export function storeWorkerReview(store: Store, row: NewAnalysisRow): boolean {
  const { userId, movesKey } = row;
  const existing = engineOutput(store, userId, movesKey);
  let stored = false;
  if (!existing) {
    saveReview(store, row);
    stored = true;
  } else if (!existing.source && !existing.worker && existing.budget.nodesPerPosition < (row.nodesPerPosition ?? 0)) {
    const { userId: _u, movesKey: _m, ...fields } = row;
    store.db
      .update(analyses)
      .set(fields)
      .where(and(eq(analyses.userId, userId), eq(analyses.movesKey, movesKey)))
      .run();
    stored = true;
  }
  copyReviewAccuracy(store, userId, movesKey);
  return stored;
}
