import { randomUUID } from 'node:crypto';
import type { StoredAnalysis } from '../../schemas/engine.js';
import { movesKey } from '../../src/chess/pgn.js';
import type { User } from '../../src/context.js';
import type { Store } from '../../src/store/db.js';
import { games } from '../../src/store/schema/index.js';
import { analysisRow, saveReview } from '../../src/services/review/records.js';

/** Inserts an owned game and, when `analysis` is given, its analyses row (as the engine branch writes it). */
export function insertReviewedGame(
  store: Store,
  user: User,
  analysis: StoredAnalysis | null,
  over: Partial<typeof games.$inferInsert> = {},
): string {
  const id = randomUUID();
  const key = analysis ? movesKey(analysis.startFen, analysis.movesUci) : null;
  store.db
    .insert(games)
    .values({
      id,
      userId: user.id,
      provider: 'siteB',
      sourceId: id,
      playedAt: '2026-11-01T12:00:00.000Z',
      colour: 'white',
      result: 'win',
      opponent: 'someone',
      timeClass: 'blitz',
      timeControl: '180+2',
      rated: true,
      movesCount: analysis ? Math.ceil(analysis.movesUci.length / 2) : 0,
      sourceUrl: `https://lichess.org/${id.slice(0, 8)}`,
      movesKey: key,
      movesSource: analysis ? 'pgn' : null,
      createdAt: '2026-11-01T12:00:00.000Z',
      ...over,
    })
    .run();
  if (analysis && key) {
    // As a completed review writes it: the engine output with its derivation, and the owner's review.
    saveReview(store, analysisRow(user.id, key, analysis, analysis.analysedAt));
  }
  return id;
}
