import { plyClock, type TimeControlInfo } from '../../chess/clocks.js';
import type { Phase } from '../../chess/phase.js';
import type { Colour } from '../../chess/types.js';
import type { ReviewDerivation } from './derive.js';
import { ownerDerivations } from './records.js';
import type { Store } from '../../store/db.js';

/**
 * The one place the insight views (opening tree, stats insight blocks) read stored reviews. They
 * read the derivation stored when the review completed (src/services/review/derive.ts), never the
 * engine output: nothing is replayed per read. Only the owner's own reviews count (their analyses rows).
 */

/** The owner's reviews among `movesKeys`, as their stored derivations, by movesKey. */
export function ownerReviewDerivations(store: Store, userId: string, movesKeys: readonly string[]): Map<string, ReviewDerivation> {
  return ownerDerivations(store, userId, movesKeys);
}

/**
 * The evaluations of the positions after each of `plies` (1 = after the first move), from `owner`'s
 * side, in pawns clamped to ±5 (the project's ±500 cp cap, src/chess/evaluation.ts) so one mate does
 * not swamp an average. Null for a ply outside the game or a position that was not analysed.
 */
export function ownerPawnsAfterPlies(review: ReviewDerivation, owner: Colour, plies: readonly number[]): Array<number | null> {
  return plies.map((ply) => {
    const cp = ply >= 1 ? review.plies[ply - 1]?.evalAfterCp : null;
    if (cp === null || cp === undefined) return null;
    return (owner === 'white' ? cp : -cp || 0) / 100;
  });
}

/** What the insight blocks need of one of the owner's reviewed moves. */
export interface OwnerMoveFact {
  phase: Phase | null;
  /** lichess's per-move accuracy (src/chess/accuracy.ts moveAccuracy); null when either evaluation is missing. */
  accuracy: number | null;
  /** Classified mistake, miss or blunder. */
  error: boolean;
  /** Seconds spent (clock before − clock after + increment); null without clocks. */
  timeSpentSeconds: number | null;
}

const ERRORS: ReadonlySet<string> = new Set(['mistake', 'miss', 'blunder']);

/**
 * The owner's moves of one reviewed game with their phase, accuracy and error flag from the stored
 * derivation, and the time spent from the game's own clocks (they belong to the game, not the review).
 */
export function ownerMoveFacts(
  review: ReviewDerivation,
  owner: Colour,
  clocks: ReadonlyArray<number | null> | null,
  timeControl: TimeControlInfo | null,
): OwnerMoveFact[] {
  return review.plies.flatMap((p, i) =>
    p.colour === owner
      ? [{ phase: p.phase, accuracy: p.accuracy, error: ERRORS.has(p.classification), timeSpentSeconds: plyClock(clocks, i + 1, timeControl).timeSpentSeconds }]
      : [],
  );
}
