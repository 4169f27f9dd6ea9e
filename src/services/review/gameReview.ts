import { and, eq, sql } from 'drizzle-orm';
import type { GameDetail } from '../../../schemas/games.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError, Messages } from '../../errors.js';
import type { Store } from '../../store/db.js';
import { flatQuery, preparedOnce } from '../../store/prepared.js';
import { games } from '../../store/schema/index.js';
import { summaryColumns, toSummary, type GameRow } from '../games/index.js';
import { failedJobNote } from './queue.js';
import { describeWorkerRun, WORKER_RUN_SQL, type WorkerRun } from './workerLeases.js';
import { ownerReview } from './records.js';
import { summarizeReview } from './summary.js';

/**
 * The `review` block of game detail, from the owner's stored review (never per-ply data).
 * Null until this owner's review of the game's moves has completed.
 */
export function reviewSummaryFor(ctx: PersonalCtx, row: Pick<GameRow, 'movesKey' | 'colour'>): GameDetail['review'] {
  const review = ownerReview(ctx.store, ctx.user.id, row.movesKey);
  return review ? summarizeReview(review, row.colour) : null;
}

/** What get_game shows of an owned game, with its stored PGN and whether the owner reviewed it, in one statement: not the clocks or bookkeeping columns. */
const gameDetailQuery = (db: Store['db'], sqlite: Store['sqlite']) =>
  flatQuery(
    sqlite,
    db.select({
      ...summaryColumns,
      movesSource: games.movesSource,
      sanMoves: games.sanMoves,
      movesKey: games.movesKey,
      // Scalar subqueries rather than left joins: the same plan, but the joins ran at 14–22 µs a game
      // on a 10,000-game store against 4–6 µs for these (and for the joins on a 100,000-game one).
      // Written out with table names: drizzle renders a column inside sql`` unqualified, so in a
      // subquery `${analyses.userId} = ${games.userId}` became "user_id" = "user_id", true for every
      // analyses row (any owner's first review answered as this game's).
      pgn: sql<string | null>`(SELECT p.text FROM pgns p WHERE p.hash = "games"."pgn_hash")`,
      reviewedAt: sql<string | null>`(SELECT r.reviewed_at FROM analyses r WHERE r.user_id = "games"."user_id" AND r.moves_key = "games"."moves_key")`,
      // The latest review job of the game (index review_jobs_subject), as JSON: read only when unreviewed.
      lastJob: sql<string | null>`(SELECT json_object('status', j.status, 'error', j.error, 'run', json(${sql.raw(WORKER_RUN_SQL)})) FROM review_jobs j
        WHERE j.user_id = "games"."user_id" AND j.subject_kind = 'game' AND j.subject_id = "games"."id" ORDER BY j.created_at DESC, j.rowid DESC LIMIT 1)`,
    })
    .from(games)
    .where(and(eq(games.id, sql.placeholder('id')), eq(games.userId, sql.placeholder('userId')))),
  );

/**
 * One game as get_game shows it. Not kept in memory: most games are opened once, and keeping 512 of
 * them cost first reads a quarter of their rate (promoted garbage) for the few opened again.
 */
export function gameDetail(ctx: PersonalCtx, id: string): GameDetail {
  const row = preparedOnce(ctx.store, gameDetailQuery).get({ id, userId: ctx.user.id });
  if (!row) throw new ApiError(404, Messages.gameNotFound);
  // Added to the summary object rather than spread into a new one (see callCtx, src/context.ts).
  return Object.assign(toSummary(row), {
    // Moves only from a stored PGN or the recorded opening line: never invented.
    moves: row.movesSource && row.sanMoves ? row.sanMoves.split(' ') : [],
    movesSource: row.movesSource && row.sanMoves ? row.movesSource : null,
    pgn: row.pgn,
    // Most games are not reviewed: the statement says so, and only a reviewed one reads its review.
    review: row.reviewedAt === null ? null : reviewSummaryFor(ctx, row),
    reviewRequest: row.reviewedAt === null ? reviewRequestOf(row.lastJob) : null,
  });
}

/** An unreviewed game's latest review job as get_game tells it (issue 30: an abandoned review says so). */
function reviewRequestOf(lastJob: string | null): GameDetail['reviewRequest'] {
  if (lastJob === null) return null;
  const job = JSON.parse(lastJob) as { status: string; error: string | null; run: WorkerRun | null };
  if (job.status === 'failed') return { status: 'failed', note: failedJobNote(job.error) };
  if (job.status === 'queued') return { status: 'queued', note: 'queued for review; call request_game_review with wait to collect it' };
  // A review worker's job says how far it has got (its progress reports), not a local engine's speed (issue 45 item 6).
  if (job.status === 'running' && job.run) return { status: 'running', note: `${describeWorkerRun(job.run, Date.now())}; call request_game_review with wait to collect it` };
  if (job.status === 'running') return { status: 'running', note: 'the engine is reviewing it now; call request_game_review with wait to collect it' };
  return null;
}
