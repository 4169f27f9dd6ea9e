/**
 * The English Chess Federation's monthly K-rating (V4, August 2020): pure arithmetic, no I/O.
 *
 * Sources, and which rule each one gives:
 * - ECF, "The calculation of ECF Grades on a monthly basis"
 *   (https://www.englishchess.org.uk/the-calculation-of-ecf-grades-on-a-monthly-basis/), item 4:
 *   "R1 = R0 + k(W - We) where R0 is the grade for the previous month, k is 20 or 40, W is the player's
 *   total score for results in the month, We is the expected total score based on the FIDE table 8.1b".
 * - ECF, "How ratings are calculated" (https://www.ecfrating.org.uk/v2/help/help_rating.php), K Rating
 *   table, row 1: "D = Opponent Rating - Player Rating" (difference in rating, positive when the opponent
 *   is the higher rated). It also says players with fewer than 10 games are rated by the P (performance)
 *   algorithm instead, which is not implemented here.
 * - FIDE Handbook B.02 (2017 text the ECF links, https://handbook.fide.com/chapter/B022017): table 8.1(b)
 *   (difference D → scoring probability PD for the higher and the lower rated player) and the rule that a
 *   difference of more than 400 points counts as 400.
 * - This project's specification, section 4.4 (the user's reading of the same ECF page): a gaining junior
 *   (under 18) moves at K = 40 instead of 20, and the 700-point monthly total is divided by every rated
 *   game in the month, giving the largest K a month allows.
 */

/** ECF adult K (the "k is 20 or 40" of the ECF monthly page). */
export const ADULT_K = 20;
/** ECF junior K, used only when the junior's month is a gain (spec 4.4). */
export const JUNIOR_K = 40;
/** Under this age a player is a junior for the K rule. */
export const JUNIOR_AGE_LIMIT = 18;
/** The monthly total: K may not exceed MONTHLY_TOTAL / games in the month. */
export const MONTHLY_TOTAL = 700;
/** FIDE B.02 8.3.1: a difference of more than 400 points counts as 400. */
export const DIFFERENCE_LIMIT = 400;

/**
 * FIDE table 8.1(b): [upper bound of |D|, PD of the higher-rated player]. The lower-rated player's PD is
 * 1 − PD(H). Rows above 391 all read 0.92 once the 400-point limit has been applied.
 */
const TABLE_8_1_B: ReadonlyArray<readonly [number, number]> = [
  [3, 0.5], [10, 0.51], [17, 0.52], [25, 0.53], [32, 0.54], [39, 0.55], [46, 0.56], [53, 0.57],
  [61, 0.58], [68, 0.59], [76, 0.6], [83, 0.61], [91, 0.62], [98, 0.63], [106, 0.64], [113, 0.65],
  [121, 0.66], [129, 0.67], [137, 0.68], [145, 0.69], [153, 0.7], [162, 0.71], [170, 0.72], [179, 0.73],
  [188, 0.74], [197, 0.75], [206, 0.76], [215, 0.77], [225, 0.78], [235, 0.79], [245, 0.8], [256, 0.81],
  [267, 0.82], [278, 0.83], [290, 0.84], [302, 0.85], [315, 0.86], [328, 0.87], [344, 0.88], [357, 0.89],
  [374, 0.9], [391, 0.91], [DIFFERENCE_LIMIT, 0.92],
];

export type GameResult = 'win' | 'draw' | 'loss';
export const RESULT_SCORE: Record<GameResult, number> = { win: 1, draw: 0.5, loss: 0 };

/** D = opponent − player, limited to ±400. */
export function ratingDifference(playerRating: number, opponentRating: number): number {
  const d = opponentRating - playerRating;
  return Math.max(-DIFFERENCE_LIMIT, Math.min(DIFFERENCE_LIMIT, d));
}

/** The player's expected score against an opponent D points above them (D already limited). */
export function expectedScore(difference: number): number {
  const abs = Math.abs(difference);
  const row = TABLE_8_1_B.find(([upTo]) => abs <= upTo);
  if (!row) throw new RangeError(`rating difference ${difference} is outside table 8.1(b) after the 400-point limit`);
  const higher = row[1];
  // D ≤ 0: the player is the higher rated (or level) and takes PD(H); otherwise PD(L) = 1 − PD(H).
  // Rounded to the table's two decimals so 1 − 0.92 is exactly 0.08, not 0.07999….
  return difference <= 0 ? higher : Math.round((1 - higher) * 100) / 100;
}

export interface EcfGame {
  opponentRating: number;
  result: GameResult;
}

export interface EcfRatingChange {
  currentRating: number;
  /** k·(W − We), unrounded. */
  change: number;
  /** The published list shows whole numbers: R0 + change rounded to the nearest integer, halves up. */
  newRating: number;
  /** The K used: min(base K, kMax). */
  k: number;
  /** 700 / games in the month. */
  kMax: number;
  monthlyCapApplied: boolean;
  /** 20, or 40 for a gaining junior, before the monthly cap. */
  baseK: number;
  isJunior: boolean;
  gamesInMonth: number;
  score: number;
  expectedScore: number;
  games: Array<{ opponentRating: number; result: GameResult; difference: number; expectedScore: number; contribution: number }>;
}

export interface EcfInput {
  currentRating: number;
  games: EcfGame[];
  /** Omitted means adult. */
  age?: number;
  /** Every rated game in the month; at least games.length. */
  gamesInMonth: number;
}

export function ecfRatingChange(input: EcfInput): EcfRatingChange {
  const { currentRating, games, gamesInMonth } = input;
  const rows = games.map((g) => {
    const difference = ratingDifference(currentRating, g.opponentRating);
    return { ...g, difference, expectedScore: expectedScore(difference) };
  });
  const score = rows.reduce((s, g) => s + RESULT_SCORE[g.result], 0);
  // Summed in hundredths: every table entry has two decimals, so the total is exact.
  const expected = rows.reduce((s, g) => s + Math.round(g.expectedScore * 100), 0) / 100;
  const isJunior = input.age !== undefined && input.age < JUNIOR_AGE_LIMIT;
  const gaining = score > expected;
  const baseK = isJunior && gaining ? JUNIOR_K : ADULT_K;
  const kMax = MONTHLY_TOTAL / gamesInMonth;
  const monthlyCapApplied = kMax < baseK;
  const k = monthlyCapApplied ? kMax : baseK;
  // In hundredths, so the answer is the nearest double to the exact figure (no 0.36000000000000004).
  const change = (k * (Math.round(score * 100) - Math.round(expected * 100))) / 100;
  return {
    currentRating,
    change,
    newRating: Math.floor(currentRating + change + 0.5),
    k,
    kMax,
    monthlyCapApplied,
    baseK,
    isJunior,
    gamesInMonth,
    score,
    expectedScore: expected,
    games: rows.map((g) => ({ ...g, contribution: (k * (RESULT_SCORE[g.result] * 100 - Math.round(g.expectedScore * 100))) / 100 })),
  };
}
