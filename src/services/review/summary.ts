import type { GameReviewSummary } from '../../../schemas/games.js';
import type { Colour } from '../../chess/types.js';
import type { z } from 'zod';
import type { OwnedReview } from './records.js';

/**
 * The game-detail `review` block (schemas/games.ts GameReviewSummary), read from the stored
 * derivation: no replay, no classification, no engine output parsed. The owner's colour picks
 * accuracyForUser; analysedAt is the owner's own review time.
 */
export function summarizeReview(review: OwnedReview, userColour: Colour): z.infer<typeof GameReviewSummary> {
  const d = review.derivation;
  return {
    accuracyWhite: d.accuracyWhite,
    accuracyBlack: d.accuracyBlack,
    accuracyForUser: userColour === 'white' ? d.accuracyWhite : d.accuracyBlack,
    depth: d.depth,
    engineVersion: review.engine,
    analysedAt: review.reviewedAt,
    classificationCounts: { ...d.classificationCounts },
    criticalMoments: d.criticalMoments.map((m) => ({ ...m })),
  };
}
