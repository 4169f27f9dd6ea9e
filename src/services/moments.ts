import type { z } from 'zod';
import { CriticalMomentsInput, type CriticalMomentsResponse } from '../../schemas/analysis.js';
import { selectMoments } from '../chess/moments.js';
import type { PersonalCtx } from '../context.js';
import { analyseGame, reviewOf, availability, conventions, nextStepFor, ownedGame, provenance } from './analysis.js';

export const MAX_MOMENTS = 40;

/** get_critical_moments: owner check, analysed:false with the next step, or the selected moments. */
export function getCriticalMoments(ctx: PersonalCtx, input: z.output<typeof CriticalMomentsInput>): CriticalMomentsResponse {
  const game = ownedGame(ctx, input.id);
  const review = reviewOf(ctx, game.movesKey);
  if (!review) return { analysed: false, gameId: game.id, nextStep: nextStepFor(game) };
  // Moments replay their own lines; the plies need none.
  const a = analyseGame(game, review, () => false);
  const maxMoments = Math.min(MAX_MOMENTS, Math.max(1, input.maxMoments));
  const sel = selectMoments(a.plies, a.stored, {
    side: input.side,
    minSeverity: input.minSeverity,
    minCentipawnLoss: input.minCentipawnLoss,
    maxMoments,
  });
  return {
    analysed: true,
    gameId: game.id,
    provenance: provenance(a),
    conventions: conventions(),
    userColour: game.colour,
    side: input.side,
    availability: { ...availability(a), matchesKnownWeakness: false },
    filters: {
      side: input.side,
      minSeverity: input.minSeverity ?? null,
      minCentipawnLoss: input.minCentipawnLoss ?? null,
      maxMoments,
    },
    count: sel.moments.length,
    matching: sel.matching,
    limit: maxMoments,
    selection: 'most-severe-first',
    matchingBySource: sel.matchingBySource,
    truncated: sel.truncated,
    maxLimit: MAX_MOMENTS,
    moments: sel.moments,
  };
}
