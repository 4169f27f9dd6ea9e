import type { Colour } from '../../../schemas/common.js';
import type { EngineScore } from '../../../schemas/engine.js';
import type { ReviewResponse } from '../../../schemas/review.js';
import { reviewCpScale, scalePositions } from '../../chess/calibration.js';
import { movesKey } from '../../chess/pgn.js';
import { positionScore } from '../../chess/reviewAccuracy.js';
import type { PersonalCtx } from '../../context.js';
import { copyReviewAccuracy, type ReviewJob } from './queue.js';
import { describeWorkerRun, workerRunOf } from './workerLeases.js';
import { ownerReview, type OwnedReview } from './records.js';
import { ApiError, Reply } from '../../errors.js';

/**
 * The contract between things that can be reviewed (played games, study games) and the
 * review pipeline (src/engine + the review queue). The subject's owner check is done by the caller.
 */
export interface ReviewSubject {
  kind: 'game' | 'study';
  id: string;
  startFen: string;
  movesUci: string[];
  /** The owner's colour, for accuracyForUser; null when unknown (most study games). */
  userColour: Colour | null;
}

const POLL_MS = 250;

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function completeBody(subject: ReviewSubject, review: OwnedReview, alreadyReviewed: boolean): ReviewResponse {
  const { accuracyWhite, accuracyBlack } = review.derivation;
  const forUser = subject.userColour === 'white' ? accuracyWhite : subject.userColour === 'black' ? accuracyBlack : null;
  const next =
    subject.kind === 'game'
      ? 'get_game shows the summary; get_game_analysis and get_critical_moments the details'
      : 'list_study_games shows it; the per-ply analysis comes from the same stored review';
  return {
    status: 'complete',
    id: subject.id,
    alreadyReviewed,
    review: {
      accuracyWhite: round1(accuracyWhite),
      accuracyBlack: round1(accuracyBlack),
      accuracyForUser: forUser === null ? null : round1(forUser),
    },
    note: alreadyReviewed
      ? `already reviewed (${review.engine}, ${review.nodesPerPosition.toLocaleString('en')} nodes per position, reviewed ${review.reviewedAt}); nothing was spent. ${next}`
      : `review finished (${review.engine}, ${review.nodesPerPosition.toLocaleString('en')} nodes per position). ${next}`,
  };
}

function queuedReply(ctx: PersonalCtx, subject: ReviewSubject, job: ReviewJob, fresh: boolean): Reply<ReviewResponse> {
  const ahead = ctx.runtime.reviews.position(job);
  const cost = fresh ? 'One unit of the hourly review allowance was spent.' : 'Already requested: nothing more was spent.';
  // A review worker searches at lichess's depth, minutes a game: say how far it has got, not the local engines' pace (issue 45 item 6).
  const run = job.status === 'running' ? workerRunOf(ctx.store, job.id) : null;
  const where = run
    ? `running now: ${describeWorkerRun(run, Date.now())}`
    : `${job.status === 'running' ? 'running now' : ahead > 1 ? `queued (${ahead - 1} review(s) ahead)` : 'queued (next)'}; a review on this server's engines usually takes 20 to 40 seconds`;
  return new Reply(202, {
    status: 'queued',
    id: subject.id,
    note: `${where}. ${cost} Call again with the same id (optionally with wait up to 45) to collect it.`,
  });
}

/** Polls the job with real timers (the review runs in real time whatever the injected clock says). */
async function waitFor(ctx: PersonalCtx, jobId: string, waitSeconds: number): Promise<ReviewJob | null> {
  const reviews = ctx.runtime.reviews;
  const deadline = Date.now() + waitSeconds * 1000;
  for (;;) {
    const job = reviews.job(jobId);
    if (!job || job.status === 'complete' || job.status === 'failed') return job;
    const left = deadline - Date.now();
    if (left <= 0) return job;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(POLL_MS, left));
      const off = reviews.onFinished(done);
      function done() {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  }
}

/**
 * The spec's review state table, per owner: this owner already reviewed these moves → 200
 * `alreadyReviewed: true`, free; else spend one unit of the owner's `review` allowance, queue (202)
 * and poll up to `waitSeconds`. Another owner's review of the same moves changes none of this (the
 * queue may reuse its engine output, but the request, its cost and its time are this owner's).
 */
export async function requestReview(
  ctx: PersonalCtx,
  subject: ReviewSubject,
  waitSeconds: number,
): Promise<ReviewResponse | Reply<ReviewResponse>> {
  const reviews = ctx.runtime.reviews;
  const key = movesKey(subject.startFen, subject.movesUci);
  const done = ownerReview(ctx.store, ctx.user.id, key);
  if (done) {
    if (subject.kind === 'game') copyReviewAccuracy(ctx.store, ctx.user.id, key);
    return completeBody(subject, done, true);
  }

  let job = reviews.activeJob(ctx.user.id, subject.kind, subject.id, key);
  const fresh = !job;
  if (!job) {
    // Charged only when a review is newly queued; 429 or 503 (limiter down) stop here with nothing queued.
    ctx.limiter.take('review', ctx.user.id);
    try {
      job = ctx.store.sqlite
        .transaction(() =>
          reviews.enqueue({
            userId: ctx.user.id,
            subjectKind: subject.kind,
            subjectId: subject.id,
            movesKey: key,
            startFen: subject.startFen,
            movesUci: subject.movesUci,
          }),
        )
        .immediate();
    } catch (err) {
      ctx.limiter.refund('review', ctx.user.id);
      throw err;
    }
  }

  const settled = waitSeconds > 0 ? await waitFor(ctx, job.id, waitSeconds) : job;
  const now = settled ?? job;
  if (now.status === 'complete') {
    const review = ownerReview(ctx.store, ctx.user.id, key);
    if (review) return completeBody(subject, review, false);
  }
  if (now.status === 'failed') {
    throw new ApiError(
      502,
      `the engine review failed (${now.error ?? 'unknown reason'}); call again to queue a new review`,
    );
  }
  return queuedReply(ctx, subject, now, fresh);
}

/** The position after `ply` of an analysed move sequence, with its evaluation; null when not analysed. */
export function reviewedPosition(
  ctx: PersonalCtx,
  movesKeyValue: string,
  ply: number,
): { fen: string; evaluation: EngineScore; bestMoveUci: string | null } | null {
  const analysis = ownerReview(ctx.store, ctx.user.id, movesKeyValue)?.engineOutput();
  if (!analysis || !Number.isInteger(ply) || ply < 0 || ply >= analysis.positions.length) return null;
  // On lichess's scale, as every other figure of the review (src/chess/calibration.ts).
  const [p] = scalePositions([analysis.positions[ply]], reviewCpScale(analysis));
  const evaluation = positionScore(p);
  if (!evaluation) return null;
  return { fen: p.fen, evaluation, bestMoveUci: p.lines[0]?.pv[0] ?? null };
}
