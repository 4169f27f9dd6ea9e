import { and, desc, eq, gte, inArray, isNotNull } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import { movesKey } from '../../chess/pgn.js';
import type { Store } from '../../store/db.js';
import { games, analyses, reviewJobs } from '../../store/schema/index.js';
import { fullGameMoves } from '../games/index.js';
import type { GameRow } from '../games/index.js';
import { activeJobOf, insertReviewJob, REVIEW_PRIORITY, type ReviewQueue } from './queue.js';

export interface BulkSelection {
  /** Games played on or after this day (YYYY-MM-DD, UTC). */
  since?: string;
  limit?: number;
  provider?: string;
  /** Only games with these moves (`review --by-key`: the reviews a worker key made, forgotten first). */
  movesKeys?: readonly string[];
}

export interface BulkProgress {
  done: number;
  failed: number;
  total: number;
  /**
   * Of `total`, games that already had a queued or running review (a `serve` working an agent's request,
   * or a run killed before it finished): no second job is queued; the run waits for that one.
   */
  alreadyQueued: number;
  /** The game just finished, with its failure reason when it failed. */
  last?: { gameId: string; error: string | null };
}

/**
 * The owner's games with full moves that the owner has not reviewed, newest first. A game whose
 * moves another of the owner's games already had reviewed is left out (the review is theirs already).
 */
export function unreviewedGames(store: Store, userId: string, sel: BulkSelection): GameRow[] {
  const rows = store.db
    .select({ game: games, reviewed: analyses.movesKey })
    .from(games)
    .leftJoin(analyses, and(eq(analyses.userId, games.userId), eq(analyses.movesKey, games.movesKey)))
    .where(
      and(
        eq(games.userId, userId),
        eq(games.movesSource, 'pgn'),
        isNotNull(games.movesKey),
        sel.since ? gte(games.playedAt, `${sel.since}T00:00:00.000Z`) : undefined,
        sel.provider ? eq(games.provider, sel.provider as GameRow['provider']) : undefined,
        sel.movesKeys ? inArray(games.movesKey, [...sel.movesKeys]) : undefined,
      ),
    )
    .orderBy(desc(games.playedAt))
    .all();
  const seen = new Set<string>();
  const out: GameRow[] = [];
  for (const r of rows) {
    if (r.reviewed || seen.has(r.game.movesKey!)) continue;
    seen.add(r.game.movesKey!);
    out.push(r.game);
    if (sel.limit !== undefined && out.length >= sel.limit) break;
  }
  return out;
}

/**
 * Reviews the owner's unreviewed games one after another through the queue (the owner acting on
 * their own machine: no API allowance is spent). Jobs are queued at bulk priority, so an agent's
 * request taken by a `serve` on the same store goes first. `signal` stops after the current games:
 * every finished review is kept, jobs not yet started are withdrawn, and the next run resumes with
 * what is left. Returns the counts; `failed` games keep a failed job naming why.
 */
export async function bulkReview(
  deps: { store: Store; clock: Clock; reviews: ReviewQueue },
  userId: string,
  sel: BulkSelection,
  onProgress: (p: BulkProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<BulkProgress> {
  const todo = unreviewedGames(deps.store, userId, sel);
  const progress: BulkProgress = { done: 0, failed: 0, total: todo.length, alreadyQueued: 0 };
  onProgress(progress);
  const jobIds: Array<{ gameId: string; jobId: string }> = [];
  /** Jobs this run queued (withdrawn if never started); the others were queued before it and stay. */
  const ours = new Set<string>();
  deps.store.sqlite
    .transaction(() => {
      for (const g of todo) {
        const moves = fullGameMoves(deps.store, g);
        if (!moves || moves.movesUci.length === 0) continue;
        const key = movesKey(moves.startFen, moves.movesUci);
        // One active job per game (the store's unique index, 0010): a game already queued or running
        // is followed to its end, never queued twice, so the engine reviews it once.
        const active = activeJobOf(deps.store, userId, 'game', g.id, key);
        if (active) {
          progress.alreadyQueued += 1;
          jobIds.push({ gameId: g.id, jobId: active.id });
          continue;
        }
        const job = insertReviewJob(deps.store, deps.clock, {
          userId, subjectKind: 'game', subjectId: g.id, movesKey: key, startFen: moves.startFen, movesUci: moves.movesUci, priority: REVIEW_PRIORITY.bulk,
        });
        ours.add(job.id);
        jobIds.push({ gameId: g.id, jobId: job.id });
      }
    })
    .immediate();
  progress.total = jobIds.length;
  // Report each game as it settles; another process on the store may take a job, so read its final
  // state rather than assume we ran it.
  const reported = new Set<string>();
  const report = () => {
    for (const { gameId, jobId } of jobIds) {
      if (reported.has(jobId)) continue;
      const job = deps.reviews.job(jobId);
      if (job && job.status !== 'complete' && job.status !== 'failed') continue;
      reported.add(jobId);
      if (job?.status === 'failed') progress.failed += 1;
      else progress.done += 1;
      progress.last = { gameId, error: job?.status === 'failed' ? (job.error ?? 'failed') : null };
      onProgress(progress);
    }
  };
  // One runner per engine, so each engine takes a whole game while several wait (queue.ts); each
  // runs queued work, highest priority first, until every game of this run has settled.
  const runner = async () => {
    for (;;) {
      report();
      if (signal?.aborted || reported.size === jobIds.length) return;
      const ran = await deps.reviews.runOnce();
      if (!ran) await new Promise((r) => setTimeout(r, 250));
    }
  };
  try {
    await Promise.all(Array.from({ length: deps.reviews.workers }, runner));
  } finally {
    // Withdraw what this run queued and never started; finished reviews stay, and so do jobs queued before it.
    const left = [...ours];
    if (left.length) deps.store.db.delete(reviewJobs).where(and(inArray(reviewJobs.id, left), eq(reviewJobs.status, 'queued'))).run();
  }
  return progress;
}
