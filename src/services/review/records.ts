import { engineLabel } from '../../engine/builds.js';
import { and, eq, lt, sql } from 'drizzle-orm';
import { jsonList, preparedOnce } from '../../store/prepared.js';
import { StoredAnalysis as StoredAnalysisSchema } from '../../../schemas/engine.js';
import type { StoredAnalysis } from '../../chess/engineOutput.js';
import { isStoreBusy } from '../../store/busy.js';
import type { Store } from '../../store/db.js';
import { analyses, ownerReviews } from '../../store/schema/index.js';
import { DERIVATION_VERSION, deriveAll, type ReviewDerivation } from './derive.js';
import { decodeView, encodeView, type ReviewView } from './view.js';

/**
 * The analyses table and the owners' review state: the only module that reads or writes them.
 * Readers get an OwnedReview (the owner's own state plus the stored derivation), never a bare
 * analyses row, so nothing can show one owner a review another owner paid for.
 */

export type AnalysisRow = typeof analyses.$inferSelect;

/** One owner's review of a move sequence. */
export interface OwnedReview {
  movesKey: string;
  /** When this owner's review completed (their own time, whoever ran the engine first). */
  reviewedAt: string;
  engine: string;
  nodesPerPosition: number;
  derivation: ReviewDerivation;
  /** The stored per-ply view, read on demand (get_game_analysis and get_critical_moments). */
  view(): ReviewView;
  /** The stored engine output, parsed on demand (positions for saved positions; no view needs it). */
  engineOutput(): StoredAnalysis;
}

export function parseStoredAnalysis(payload: string): StoredAnalysis {
  return StoredAnalysisSchema.parse(JSON.parse(payload));
}

const payloadQuery = (db: Store['db']) => db.select({ payload: analyses.payload }).from(analyses).where(eq(analyses.movesKey, sql.placeholder('movesKey'))).prepare();

/** The stored engine output of a move sequence as JSON text, or null. */
function storedPayload(store: Store, movesKey: string): string | null {
  return preparedOnce(store, payloadQuery).get({ movesKey })?.payload ?? null;
}

/** The shared engine output for a move sequence (internal: reuse by the queue), or null. */
export function engineOutput(store: Store, movesKey: string): StoredAnalysis | null {
  const payload = storedPayload(store, movesKey);
  return payload === null ? null : parseStoredAnalysis(payload);
}

/** A review's row as written: engine output with its derivation. */
export type NewAnalysisRow = typeof analyses.$inferInsert;

/**
 * A review's row, derived from its engine output. Pure CPU work (tens of milliseconds a game), apart from the
 * write so a writer can do it before opening its transaction: the review queue does, so its write lock is not held
 * through it (another process's limiter waits only 50 ms for that lock, src/limits/limiter.ts).
 */
export function analysisRow(movesKey: string, analysis: StoredAnalysis): NewAnalysisRow {
  const { derivation: d, view } = deriveAll(analysis);
  return {
    movesKey,
    payload: JSON.stringify(analysis),
    engine: engineLabel(analysis.engine),
    depth: d.depth,
    nodesPerPosition: analysis.budget.nodesPerPosition,
    accuracyWhite: d.accuracyWhite,
    accuracyBlack: d.accuracyBlack,
    analysedAt: analysis.analysedAt,
    derivation: JSON.stringify(d),
    derivationVersion: d.version,
    view: encodeView(view),
  };
}

/** Stores a review's row (first writer wins: the same moves give the same figures). */
export function saveAnalysis(store: Store, row: NewAnalysisRow): void {
  store.db.insert(analyses).values(row).onConflictDoNothing().run();
}

/** Records that an owner's review of these moves completed at `at` (idempotent: the first time stays). */
export function grantReview(store: Store, userId: string, movesKey: string, at: string): void {
  store.db.insert(ownerReviews).values({ userId, movesKey, reviewedAt: at }).onConflictDoNothing().run();
}

/** Recomputes and stores the derivation and view of one row from its stored engine output (one statement). */
function rederive(store: Store, movesKey: string): { derivation: ReviewDerivation; view: ReviewView } {
  const out = deriveAll(engineOutput(store, movesKey)!);
  const d = out.derivation;
  store.db
    .update(analyses)
    .set({
      derivation: JSON.stringify(d),
      derivationVersion: d.version,
      view: encodeView(out.view),
      depth: d.depth,
      accuracyWhite: d.accuracyWhite,
      accuracyBlack: d.accuracyBlack,
    })
    .where(eq(analyses.movesKey, movesKey))
    .run();
  return out;
}

/** A stored derivation when it is of the current version, else one recomputed (and stored, with its view). */
function currentDerivation(store: Store, movesKey: string, stored: string | null, version: number): { derivation: ReviewDerivation; view: ReviewView | null } {
  if (stored && version === DERIVATION_VERSION) return { derivation: JSON.parse(stored) as ReviewDerivation, view: null };
  return rederive(store, movesKey);
}

/** The columns a review's readers take: never the view (read on demand) nor, for most, the payload. */
const summaryColumns = {
  movesKey: analyses.movesKey,
  engine: analyses.engine,
  nodesPerPosition: analyses.nodesPerPosition,
  derivation: analyses.derivation,
  derivationVersion: analyses.derivationVersion,
};
type SummaryRow = Pick<AnalysisRow, keyof typeof summaryColumns>;

const viewQuery = (db: Store['db']) =>
  db.select({ view: analyses.view, v: analyses.derivationVersion }).from(analyses).where(eq(analyses.movesKey, sql.placeholder('movesKey'))).prepare();

function owned(store: Store, row: SummaryRow, reviewedAt: string): OwnedReview {
  let parsed: StoredAnalysis | null = null;
  const { derivation, view: derivedNow } = currentDerivation(store, row.movesKey, row.derivation, row.derivationVersion);
  let view = derivedNow;
  return {
    movesKey: row.movesKey,
    reviewedAt,
    engine: row.engine,
    nodesPerPosition: row.nodesPerPosition,
    derivation,
    view: () => (view ??= readView(store, row.movesKey)),
    engineOutput: () => (parsed ??= engineOutput(store, row.movesKey)!),
  };
}

function readView(store: Store, movesKey: string): ReviewView {
  const r = preparedOnce(store, viewQuery).get({ movesKey })!;
  if (r.view && r.v === DERIVATION_VERSION) return decodeView(r.view);
  return rederive(store, movesKey).view;
}

const ownerReviewsQuery = (db: Store['db']) =>
  db
    .select({ row: summaryColumns, reviewedAt: ownerReviews.reviewedAt })
    .from(ownerReviews)
    .innerJoin(analyses, eq(analyses.movesKey, ownerReviews.movesKey))
    .where(and(eq(ownerReviews.userId, sql.placeholder('userId')), sql`${ownerReviews.movesKey} IN ${jsonList('keys')}`))
    .prepare();

/** The owner's review of these moves, or null when this owner has none (whoever else has one). */
export function ownerReview(store: Store, userId: string, movesKey: string | null): OwnedReview | null {
  return movesKey ? (ownerReviewsOf(store, userId, [movesKey]).get(movesKey) ?? null) : null;
}

/** The owner's reviews of several move sequences at once, by movesKey (only those asked for are read). */
export function ownerReviewsOf(store: Store, userId: string, keys: readonly string[]): Map<string, OwnedReview> {
  const out = new Map<string, OwnedReview>();
  if (!keys.length) return out;
  for (const r of preparedOnce(store, ownerReviewsQuery).all({ userId, keys: JSON.stringify([...new Set(keys)]) })) out.set(r.row.movesKey, owned(store, r.row, r.reviewedAt));
  return out;
}

/**
 * The stored derivations of the owner's reviews among `keys`, by movesKey: only what this owner
 * reviewed (owner_reviews), and only the derivation column (the engine output is read just for a
 * row whose derivation predates DERIVATION_VERSION, to recompute it once). Chunked under SQLite's
 * variable limit. For the insight views, which read many reviews at once.
 */
export function ownerDerivations(store: Store, userId: string, keys: readonly string[]): Map<string, ReviewDerivation> {
  const out = new Map<string, ReviewDerivation>();
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows = store.sqlite
      .prepare(
        `SELECT a.moves_key AS k, a.derivation AS d, a.derivation_version AS v
           FROM owner_reviews o JOIN analyses a ON a.moves_key = o.moves_key
          WHERE o.user_id = ? AND o.moves_key IN (${chunk.map(() => '?').join(',')})`,
      )
      .all(userId, ...chunk) as Array<{ k: string; d: string | null; v: number }>;
    for (const r of rows) out.set(r.k, currentDerivation(store, r.k, r.d, r.v).derivation);
  }
  return out;
}

/**
 * Brings every stored derivation to the current version, from the stored engine output (never the
 * engine). Run in the background at start, one row per transaction and one row per turn of the
 * event loop, so a store of thousands of reviews neither blocks requests nor holds every payload in
 * memory; a row read before it gets there is derived on read. Returns rows updated.
 */
export async function refreshDerivations(store: Store, stop: () => boolean = () => false): Promise<number> {
  const keys = store.sqlite.prepare('SELECT moves_key FROM analyses WHERE derivation_version < ?').pluck().all(DERIVATION_VERSION) as string[];
  let updated = 0;
  for (const movesKey of keys) {
    if (stop() || !store.sqlite.open) break;
    const refresh = store.sqlite.transaction(() => {
      // Checked inside the transaction: a reader may have derived it meanwhile.
      const stale = store.db
        .select({ v: analyses.derivationVersion })
        .from(analyses)
        .where(and(eq(analyses.movesKey, movesKey), lt(analyses.derivationVersion, DERIVATION_VERSION)))
        .get();
      if (stale) (rederive(store, movesKey), (updated += 1));
    });
    try {
      refresh.immediate();
    } catch (err) {
      // Another process holds the write lock (src/store/busy.ts): leave this row to the next start
      // (or to its first read), and pause rather than meet the lock again at once.
      if (!isStoreBusy(err)) throw err;
      await new Promise<void>((resolve) => setTimeout(resolve, 200));
      continue;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return updated;
}

/**
 * Stores written before reviews were per owner: each owner whose review job completed, or whose
 * game already carries the review's accuracy, gets their own review row (their job's finish time,
 * else the analysis time). Idempotent; run at start.
 */
export function backfillOwnerReviews(store: Store): number {
  return store.sqlite
    .prepare(
      `INSERT OR IGNORE INTO owner_reviews (user_id, moves_key, reviewed_at)
       SELECT j.user_id, j.moves_key, MIN(COALESCE(j.finished_at, a.analysed_at))
         FROM review_jobs j JOIN analyses a ON a.moves_key = j.moves_key
        WHERE j.status = 'complete' GROUP BY j.user_id, j.moves_key
       UNION ALL
       SELECT g.user_id, g.moves_key, MIN(a.analysed_at)
         FROM games g JOIN analyses a ON a.moves_key = g.moves_key
        WHERE g.review_accuracy IS NOT NULL GROUP BY g.user_id, g.moves_key`,
    )
    .run().changes;
}

