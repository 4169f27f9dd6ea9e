import type { z } from 'zod';
import { CriticalMomentsInput, type CriticalMomentsResponse } from '../../../schemas/analysis.js';
import { ownedMoment, rankMoments } from '../../chess/moments.js';
import { withOwner } from '../../chess/ownerPly.js';
import type { PersonalCtx } from '../../context.js';
import { availability, conventions, nextStepFor, ownedGame, provenance, reviewedGame, reviewOf } from './analysis.js';

export const MAX_MOMENTS = 40;

/** get_critical_moments: owner check, analysed:false with the next step, or the selected stored moments. */
export function getCriticalMoments(ctx: PersonalCtx, input: z.output<typeof CriticalMomentsInput>): CriticalMomentsResponse {
  const game = ownedGame(ctx, input.id);
  const review = reviewOf(ctx, game.movesKey);
  if (!review) return { analysed: false, gameId: game.id, nextStep: nextStepFor(game) };
  const a = reviewedGame(game, review);
  const maxMoments = Math.min(MAX_MOMENTS, Math.max(1, input.maxMoments));
  // Selection needs only the owner's side on each stored ply; the moments themselves are stored.
  const plies = a.view.plies.map((p) => ({ ...p, ply: { ...p.ply, isUserMove: p.ply.colour === game.colour } }));
  const sel = rankMoments(plies, {
    side: input.side,
    minSeverity: input.minSeverity,
    minCentipawnLoss: input.minCentipawnLoss,
    maxMoments,
  });
  const moments = sel.kept.map((c) => ownedMoment(c.p.moment!, c.source, withOwner(c.p.ply, a.owner)));
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
    count: moments.length,
    matching: sel.matching,
    limit: maxMoments,
    selection: 'most-severe-first',
    matchingBySource: sel.matchingBySource,
    truncated: sel.truncated,
    maxLimit: MAX_MOMENTS,
    moments,
  };
}
