import type { z } from 'zod';
import { AnalysisInput, type AnalysisResponse } from '../../../schemas/analysis.js';
import { CONCEPT_NOTES, DETECTORS } from '../../chess/concepts.js';
import { parseClocks, parseTimeControl } from '../../chess/clocks.js';
import { CONVENTION_NOTES } from '../../chess/evaluation.js';
import { withOwner, type PlyOwner } from '../../chess/ownerPly.js';
import type { PersonalCtx } from '../../context.js';
import { ownerReview, type OwnedReview } from './records.js';
import type { ReviewView } from './view.js';
import { ownedGame } from '../games/index.js';
import type { GameRow } from '../games/index.js';

export type { GameRow };

export const MAX_PLY_LIMIT = 120;

/** The caller's game, or the one 404 an unknown and a foreign id share. */
export { ownedGame };

/** The caller's own review of these moves, or null (another owner's review of them counts for nothing). */
export function reviewOf(ctx: PersonalCtx, movesKey: string | null): OwnedReview | null {
  return ownerReview(ctx.store, ctx.user.id, movesKey);
}

/** An owned game with its stored review view and the owner's side and clocks to lay on it. */
export interface ReviewedGame {
  game: GameRow;
  review: OwnedReview;
  view: ReviewView;
  owner: PlyOwner;
}

/** Reads the stored view of an owned, reviewed game: nothing is replayed or classified here. */
export function reviewedGame(game: GameRow, review: OwnedReview): ReviewedGame {
  return {
    game,
    review,
    view: review.view(),
    owner: { userColour: game.colour, clocks: parseClocks(game.clocks), timeControl: parseTimeControl(game.timeControl) },
  };
}

/** The next step an unreviewed game's response carries. */
export function nextStepFor(game: GameRow): string {
  return game.movesKey
    ? 'This game has not been reviewed. Call request_game_review with this id (pass wait up to 45 to collect the result), then call this tool again.'
    : 'This game has no stored moves. Attach its PGN with attach_pgn, then call request_game_review, then call this tool again.';
}

export function provenance(a: ReviewedGame) {
  return {
    source: 'engine review by this service (stored engine output, derived once when the review completed)',
    engineVersion: a.view.engine,
    depth: a.review.derivation.depth,
    analysedAt: a.review.reviewedAt,
    generatedBy: 'deterministic' as const,
  };
}

export function conventions() {
  return {
    evalFrame: 'side-to-move' as const,
    moverFrame: 'mover' as const,
    capCentipawns: 500 as const,
    notes: { ...CONVENTION_NOTES },
  };
}

export function availability(a: ReviewedGame) {
  const clocks = a.owner.clocks !== null;
  return {
    clocks,
    timeSpent: clocks && a.owner.timeControl?.baseSeconds != null,
    alternatives: a.view.alternatives,
    concepts: true,
    humanDifficulty: false,
    threats: false,
    conceptDetectors: { detectors: [...DETECTORS], version: 'v1' as const },
    notes: { concepts: CONCEPT_NOTES },
  };
}

/** get_game_analysis: owner check, analysed:false with the next step, or a page of stored plies. */
export function getGameAnalysis(ctx: PersonalCtx, input: z.output<typeof AnalysisInput>): AnalysisResponse {
  const game = ownedGame(ctx, input.id);
  const review = reviewOf(ctx, game.movesKey);
  if (!review) return { analysed: false, gameId: game.id, nextStep: nextStepFor(game) };
  const a = reviewedGame(game, review);
  const total = a.view.plies.length;
  const fromPly = input.fromPly >= 1 && input.fromPly <= total ? input.fromPly : 1;
  const limit = Math.min(MAX_PLY_LIMIT, Math.max(1, input.limit));
  const wanted = (colour: string, ply: number) => ply >= fromPly && (input.side === 'both' || colour === game.colour);
  const matchingPlies = a.view.plies.filter((p) => wanted(p.ply.colour, p.ply.ply));
  const page = matchingPlies.slice(0, limit);
  const more = matchingPlies.length > page.length;
  return {
    analysed: true,
    gameId: game.id,
    provenance: provenance(a),
    conventions: conventions(),
    accuracyWhite: review.derivation.accuracyWhite,
    accuracyBlack: review.derivation.accuracyBlack,
    userColour: game.colour,
    timeControl: a.owner.timeControl,
    plyCount: total,
    availability: availability(a),
    pagination: {
      fromPly,
      limit,
      side: input.side,
      returned: page.length,
      matching: matchingPlies.length,
      totalPlies: total,
      nextFromPly: more ? matchingPlies[page.length].ply.ply : null,
    },
    plies: page.map((p) => withOwner(p.ply, a.owner)),
  };
}
