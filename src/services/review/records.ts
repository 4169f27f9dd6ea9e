import { reviewEngineLabel } from './engineName.js';
import { and, eq, lt, sql } from 'drizzle-orm';
import { jsonList, preparedOnce } from '../../store/prepared.js';
import { StoredAnalysis as StoredAnalysisSchema } from '../../../schemas/engine.js';
import type { StoredAnalysis } from '../../chess/engineOutput.js';
import { isStoreBusy } from '../../store/busy.js';
import type { Store } from '../../store/db.js';
import { analyses } from '../../store/schema/index.js';
import { DERIVATION_VERSION, deriveAll, type ReviewDerivation } from './derive.js';
import { decodeView, encodeView, type ReviewView } from './view.js';

/**
 * The analyses table, each owner's reviews (keyed by owner and moves): the only module that reads or
 * writes it. Every read and write names the owner, so nothing one owner's review, import or engine run
 * produced is shown to, reused for or timed for another owner (issue 37 item 1). Readers get an
 * OwnedReview (the owner's time plus the stored derivation), never a bare row.
 */

export type AnalysisRow = typeof analyses.$inferSelect;

/** One owner's review of a move sequence. */
export interface OwnedReview {
  movesKey: string;
  /** When this owner's review completed. */
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

/** One owner's row of one move sequence: every statement here selects by both. */
const ownerRow = and(eq(analyses.userId, sql.placeholder('userId')), eq(analyses.movesKey, sql.placeholder('movesKey')));
const payloadQuery = (db: Store['db']) => db.select({ payload: analyses.payload }).from(analyses).where(ownerRow).prepare();

/** The owner's stored engine output of a move sequence (their own review's), or null. */
export function engineOutput(store: Store, userId: string, movesKey: string): StoredAnalysis | null {
  const payload = preparedOnce(store, payloadQuery).get({ userId, movesKey })?.payload ?? null;
  return payload === null ? null : parseStoredAnalysis(payload);
}

/** A review's row as written: engine output with its derivation. */
export type NewAnalysisRow = typeof analyses.$inferInsert;

/**
 * A review's row, derived from its engine output. Pure CPU work (tens of milliseconds a game), apart from the
 * write so a writer can do it before opening its transaction: the review queue does, so its write lock is not held
 * through it (another process's limiter waits only 50 ms for that lock, src/limits/limiter.ts).
 */
export function analysisRow(userId: string, movesKey: string, analysis: StoredAnalysis, reviewedAt: string): NewAnalysisRow {
  const { derivation: d, view } = deriveAll(analysis);
  return {
    userId,
    movesKey,
    payload: JSON.stringify(analysis),
    engine: reviewEngineLabel(analysis),
    depth: d.depth,
    nodesPerPosition: analysis.budget.nodesPerPosition,
    accuracyWhite: d.accuracyWhite,
    accuracyBlack: d.accuracyBlack,
    analysedAt: analysis.analysedAt,
    reviewedAt,
    derivation: JSON.stringify(d),
    derivationVersion: d.version,
    view: encodeView(view),
  };
}

/**
 * Stores an owner's review (idempotent: the owner's first review of these moves stays, with its time; the spec
 * offers no re-analysis). Another owner's row of the same moves is neither read nor touched. True when stored.
 */
export function saveReview(store: Store, row: NewAnalysisRow): boolean {
  return store.db.insert(analyses).values(row).onConflictDoNothing().run().changes > 0;
}

/** Recomputes and stores the derivation and view of one owner's row from its stored engine output (one statement). */
function rederive(store: Store, userId: string, movesKey: string): { derivation: ReviewDerivation; view: ReviewView } {
  const out = deriveAll(engineOutput(store, userId, movesKey)!);
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
    .where(and(eq(analyses.userId, userId), eq(analyses.movesKey, movesKey)))
    .run();
  return out;
}

/** A stored derivation when it is of the current version, else one recomputed (and stored, with its view). */
function currentDerivation(store: Store, userId: string, movesKey: string, stored: string | null, version: number): { derivation: ReviewDerivation; view: ReviewView | null } {
  if (stored && version === DERIVATION_VERSION) return { derivation: JSON.parse(stored) as ReviewDerivation, view: null };
  return rederive(store, userId, movesKey);
}

/** The columns a review's readers take: never the view (read on demand) nor, for most, the payload. */
const summaryColumns = {
  userId: analyses.userId,
  movesKey: analyses.movesKey,
  reviewedAt: analyses.reviewedAt,
  engine: analyses.engine,
  nodesPerPosition: analyses.nodesPerPosition,
  derivation: analyses.derivation,
  derivationVersion: analyses.derivationVersion,
};
type SummaryRow = Pick<AnalysisRow, keyof typeof summaryColumns>;

const viewQuery = (db: Store['db']) => db.select({ view: analyses.view, v: analyses.derivationVersion }).from(analyses).where(ownerRow).prepare();

function owned(store: Store, row: SummaryRow): OwnedReview {
  let parsed: StoredAnalysis | null = null;
  const { userId, movesKey } = row;
  const { derivation, view: derivedNow } = currentDerivation(store, userId, movesKey, row.derivation, row.derivationVersion);
  let view = derivedNow;
  return {
    movesKey,
    reviewedAt: row.reviewedAt,
    engine: row.engine,
    nodesPerPosition: row.nodesPerPosition,
    derivation,
    view: () => (view ??= readView(store, userId, movesKey)),
    engineOutput: () => (parsed ??= engineOutput(store, userId, movesKey)!),
  };
}

function readView(store: Store, userId: string, movesKey: string): ReviewView {
  const r = preparedOnce(store, viewQuery).get({ userId, movesKey })!;
  if (r.view && r.v === DERIVATION_VERSION) return decodeView(r.view);
  return rederive(store, userId, movesKey).view;
}

const ownerReviewsQuery = (db: Store['db']) =>
  db
    .select(summaryColumns)
    .from(analyses)
    .where(and(eq(analyses.userId, sql.placeholder('userId')), sql`${analyses.movesKey} IN ${jsonList('keys')}`))
    .prepare();

/** The owner's review of these moves, or null when this owner has none (whoever else has one). */
export function ownerReview(store: Store, userId: string, movesKey: string | null): OwnedReview | null {
  return movesKey ? (ownerReviewsOf(store, userId, [movesKey]).get(movesKey) ?? null) : null;
}

/** The owner's reviews of several move sequences at once, by movesKey (only those asked for are read). */
export function ownerReviewsOf(store: Store, userId: string, keys: readonly string[]): Map<string, OwnedReview> {
  const out = new Map<string, OwnedReview>();
  if (!keys.length) return out;
  for (const r of preparedOnce(store, ownerReviewsQuery).all({ userId, keys: JSON.stringify([...new Set(keys)]) })) out.set(r.movesKey, owned(store, r));
  return out;
}

/**
 * The stored derivations of the owner's reviews among `keys`, by movesKey: only this owner's
 * rows, and only the derivation column (the engine output is read just for a
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
        `SELECT moves_key AS k, derivation AS d, derivation_version AS v
           FROM analyses WHERE user_id = ? AND moves_key IN (${chunk.map(() => '?').join(',')})`,
      )
      .all(userId, ...chunk) as Array<{ k: string; d: string | null; v: number }>;
    for (const r of rows) out.set(r.k, currentDerivation(store, userId, r.k, r.d, r.v).derivation);
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
  const rows = store.sqlite.prepare('SELECT user_id AS userId, moves_key AS movesKey FROM analyses WHERE derivation_version < ?').all(DERIVATION_VERSION) as Array<{
    userId: string;
    movesKey: string;
  }>;
  let updated = 0;
  for (const { userId, movesKey } of rows) {
    if (stop() || !store.sqlite.open) break;
    const refresh = store.sqlite.transaction(() => {
      // Checked inside the transaction: a reader may have derived it meanwhile.
      const stale = store.db
        .select({ v: analyses.derivationVersion })
        .from(analyses)
        .where(and(eq(analyses.userId, userId), eq(analyses.movesKey, movesKey), lt(analyses.derivationVersion, DERIVATION_VERSION)))
        .get();
      if (stale) (rederive(store, userId, movesKey), (updated += 1));
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
 * The owner's reviews a review worker key made (issue 44 item 5): by the key's id, or, for reviews stored before
 * they carried it, by the key's name. Moves keys, oldest review first.
 */
export function workerReviewKeys(store: Store, userId: string, key: { ids: readonly string[]; name: string }): string[] {
  const rows = store.sqlite
    .prepare(
      `SELECT moves_key AS movesKey FROM analyses
        WHERE user_id = ? AND json_extract(payload, '$.worker') IS NOT NULL
          AND (json_extract(payload, '$.worker.keyId') IN (SELECT value FROM json_each(?))
               OR (json_extract(payload, '$.worker.keyId') IS NULL AND json_extract(payload, '$.worker.key') = ?))
        ORDER BY reviewed_at`,
    )
    .all(userId, JSON.stringify(key.ids), key.name) as Array<{ movesKey: string }>;
  return rows.map((r) => r.movesKey);
}

/**
 * Forgets the owner's reviews of these moves (to review them again), in one transaction: the rows, and the
 * accuracy their games showed from them. Another owner's reviews are never touched.
 */
export function forgetReviews(store: Store, userId: string, movesKeys: readonly string[]): number {
  if (!movesKeys.length) return 0;
  return store.sqlite
    .transaction(() => {
      const list = JSON.stringify(movesKeys);
      const gone = store.sqlite.prepare('DELETE FROM analyses WHERE user_id = ? AND moves_key IN (SELECT value FROM json_each(?))').run(userId, list).changes;
      store.sqlite.prepare('UPDATE games SET review_accuracy = NULL, version = version + 1 WHERE user_id = ? AND moves_key IN (SELECT value FROM json_each(?)) AND review_accuracy IS NOT NULL').run(userId, list);
      return gone;
    })
    .immediate();
}
