import { ecfRatingChange, type EcfGame, type EcfRatingChange, type GameResult } from '../../chess/ecfRating.js';
import { ApiError } from '../../errors.js';
import { round2 } from '../common/index.js';

/** Spec 4.4 / 8: at most 100 games per call. */
export const MAX_GAMES = 100;

const RESULT_WORDS: Record<string, GameResult> = {
  win: 'win', w: 'win', '1': 'win',
  draw: 'draw', d: 'draw', '=': 'draw',
  loss: 'loss', l: 'loss', '0': 'loss',
};

/** Always part of the answer (spec 4.4, "Limits of the calculator"). */
export const CAVEATS = [
  'This is arithmetic on the figures you sent, not an official ECF rating.',
  'Only the ECF K-rating algorithm is implemented; players with fewer than 10 rated games are rated by the ECF P (performance) algorithm, which is not implemented here.',
  'Any ECF adjustment is treated as zero.',
] as const;

/**
 * "1850 w, 2010 draw, 1700 0" → games. An entry is an opponent rating (digits) then a result, separated
 * by spaces; a word result may also follow the digits directly ("1850w"). A bad entry is named by its
 * 1-based position and its text, so the caller can fix exactly that one.
 */
export function parseGames(text: string): EcfGame[] {
  const entries = text.split(',');
  if (entries.length > MAX_GAMES) {
    throw new ApiError(400, `games: at most ${MAX_GAMES} entries per call (got ${entries.length})`);
  }
  return entries.map((raw, i) => {
    const entry = raw.trim();
    const m = /^(\d{1,4})\s+(\S+)$/.exec(entry) ?? /^(\d{1,4})(win|draw|loss|w|d|l|=)$/i.exec(entry);
    const result = m ? RESULT_WORDS[m[2].toLowerCase()] : undefined;
    if (!m || !result) {
      throw new ApiError(
        400,
        `games: entry ${i + 1} "${entry.slice(0, 40)}" is not "<opponent rating> <result>" (results: win|draw|loss, w|d|l or 1|=|0)`,
      );
    }
    return { opponentRating: Number(m[1]), result };
  });
}

export interface RatingChangeRequest {
  currentRating: number;
  games: string;
  age?: number;
  gamesThisMonth?: number;
}

export type RatingChangeAnswer = EcfRatingChange & { caveats: string[] };

export function calculateRatingChange(req: RatingChangeRequest): RatingChangeAnswer {
  const games = parseGames(req.games);
  if (req.gamesThisMonth !== undefined && req.gamesThisMonth < games.length) {
    throw new ApiError(
      400,
      `gamesThisMonth (${req.gamesThisMonth}) is fewer than the ${games.length} games listed; it counts every rated game in the month, these included`,
    );
  }
  const gamesInMonth = req.gamesThisMonth ?? games.length;
  const result = ecfRatingChange({ currentRating: req.currentRating, games, age: req.age, gamesInMonth });
  // Worked out exactly (newRating comes from the exact change); published to two decimals, as the
  // expected scores are, so 700 / 3 reads 233.33 and not 233.33333333333334 (issue 45 item 12).
  return {
    ...result,
    change: round2(result.change),
    k: round2(result.k),
    kMax: round2(result.kMax),
    games: result.games.map((g) => ({ ...g, contribution: round2(g.contribution) })),
    caveats: [...CAVEATS],
  };
}
