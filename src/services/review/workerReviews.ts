import { and, eq, lt, sql } from 'drizzle-orm';
import type { Store } from '../../store/db.js';
import { analyses } from '../../store/schema/index.js';
import { copyReviewAccuracy } from './queue.js';
import { saveReview, type NewAnalysisRow } from './records.js';

/**
 * Stores a review worker's review (issue 36) as the owner's review of its moves, inside the caller's transaction.
 * The deeper review wins, never the other way: a worker's replaces the owner's engine review made at fewer nodes
 * per position (the local engines' quick profile); a lichess-imported review is lichess's own and is never
 * replaced, nor is another worker's. Reviews are per owner (records.ts), so no other owner's review is touched.
 * Answers whether the worker's review is the one stored.
 */
export function storeWorkerReview(store: Store, row: NewAnalysisRow): boolean {
  const { userId, movesKey, ...fields } = row;
  // Decided in the statement from the stored row's columns, not by parsing its payload: this runs inside the
  // caller's write transaction, which holds the store's write lock only for the writes.
  const stored =
    saveReview(store, row) ||
    store.db
      .update(analyses)
      .set(fields)
      .where(
        and(
          eq(analyses.userId, userId),
          eq(analyses.movesKey, movesKey),
          lt(analyses.nodesPerPosition, row.nodesPerPosition ?? 0),
          sql`json_extract(${analyses.payload}, '$.source') IS NULL AND json_extract(${analyses.payload}, '$.worker') IS NULL`,
        ),
      )
      .run().changes > 0;
  copyReviewAccuracy(store, userId, movesKey);
  return stored;
}
