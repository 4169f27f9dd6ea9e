import type { Colour } from '../../schemas/common.js';
import type { EngineScore } from '../../schemas/engine.js';
import type { ReviewResponse } from '../../schemas/review.js';
import type { PersonalCtx } from '../context.js';
import { notAvailableYet, type Reply } from '../errors.js';

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

/**
 * The spec's review state table: already reviewed → 200 `alreadyReviewed: true`, free;
 * else spend one unit of the shared `review` allowance, queue (202) and poll up to `waitSeconds`.
 */
export async function requestReview(
  _ctx: PersonalCtx,
  _subject: ReviewSubject,
  _waitSeconds: number,
): Promise<ReviewResponse | Reply<ReviewResponse>> {
  throw notAvailableYet('engine review');
}

/** The position after `ply` of an analysed move sequence, with its evaluation; null when not analysed. */
export function reviewedPosition(
  _ctx: PersonalCtx,
  _movesKey: string,
  _ply: number,
): { fen: string; evaluation: EngineScore; bestMoveUci: string | null } | null {
  return null;
}
