import type { StatTimeClass } from '../../../schemas/common.js';
import { EXPLORER_RATINGS, type ExplorerRating, type ExplorerSpeed } from '../../sources/lichess/explorer.js';

/** The explorer's speeds for each of the project's time classes (lichess's names; standard = classical). */
export const TIME_CLASS_SPEEDS: Record<StatTimeClass, readonly ExplorerSpeed[]> = {
  bullet: ['bullet'],
  blitz: ['blitz'],
  rapid: ['rapid'],
  standard: ['classical'],
};

/** The explorer's rating group a rating falls in: the highest group at or under it (groups run to the next one). */
export function ratingGroup(rating: number): ExplorerRating {
  let group: ExplorerRating = EXPLORER_RATINGS[0];
  for (const g of EXPLORER_RATINGS) if (rating >= g) group = g;
  return group;
}

export const isRatingGroup = (n: number): n is ExplorerRating => (EXPLORER_RATINGS as readonly number[]).includes(n);

/**
 * A chess.com rating as the lichess rating of a player of the same strength. The fit published by
 * u/RogueAstral on r/chess, "Comparing Lichess and Chess.com Ratings" (2025-04-29): 305,539 players with a
 * blitz rating on both sites (usernames joined over lichess's February 2025 database and chess.com's
 * published API, ratings with RD ≥ 150 and defaults removed), RANSAC regression:
 * chesscom_blitz = 1.3728 × lichess_blitz − 929.4548, so lichess = (chesscom + 929.4548) / 1.3728.
 * It is the only fit of that size published; it is used for every time class (only blitz was fitted).
 */
export function lichessFromChesscom(chesscom: number): number {
  return Math.round((chesscom + 929.4548) / 1.3728);
}
