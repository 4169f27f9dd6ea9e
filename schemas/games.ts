import { z } from 'zod';
import {
  AccuracySource,
  Classification,
  CLASSIFICATIONS,
  Colour,
  COLOURS,
  csvOf,
  GAME_PROVIDERS,
  providersCsv,
  GameProvider,
  GameResult,
  IsoDate,
  RAW_TIME_CLASSES,
  RawTimeClass,
  RESULTS,
  Timestamp,
} from './common.js';

export const GAME_SORTS = ['date-desc', 'date-asc', 'accuracy-desc', 'accuracy-asc'] as const;
export const MOVES_SOURCES = ['pgn', 'opening-only'] as const;
export const GAMES_PAGE_SIZE = 50;
export const REVIEWED_FILTERS = ['yes', 'no'] as const;

export const GameSummary = z
  .object({
    id: z.string().describe('Game id (uuid); pass it to get_game and the analysis tools'),
    provider: GameProvider.describe('Where the game came from: siteA = chess.com, siteB = lichess, fed = ECF over-the-board, manual, pgn import'),
    playedAt: Timestamp.describe('When the game was played (UTC); for a partial PGN date, the first day of the known period (see dateText)'),
    dateText: z.string().nullable().describe('The date as the PGN wrote it when only the year or year and month is known ("1934.??.??"); null when exact'),
    colour: Colour.describe("The owner's colour"),
    result: GameResult.describe("The result from the owner's point of view"),
    opponent: z.string().describe("Opponent's name or username"),
    opponentRating: z.number().int().nullable().describe("Opponent's rating before the game; null when the source records none"),
    userRating: z.number().int().nullable().describe("The owner's rating before the game, as the source records it; null when unrated or unknown"),
    ratingDelta: z.number().int().nullable().describe("Rating change from this game (rating after = userRating + ratingDelta); null when unknown"),
    timeClass: RawTimeClass.describe('Raw time class as the source names it'),
    rated: z.boolean().describe('Whether the game was rated'),
    eco: z.string().nullable().describe('ECO code; null when the source records none'),
    opening: z.string().nullable().describe('Opening name; null when the source records none'),
    event: z.string().nullable().describe('Event or tournament name, or null'),
    movesCount: z.number().int().describe('Length in full moves; 0 when no moves are known'),
    accuracy: z.number().nullable().describe("Effective accuracy of the owner (0-100): the platform's value preferred, this service's engine review as fallback; null when neither exists"),
    accuracySource: AccuracySource.nullable().describe('platform, review, or null when neither exists'),
    sourceUrl: z.string().describe("Link to the game at its source, or this service's own URL for imports"),
    reviewed: z.boolean().describe("Reviewed by this service's engine. Platform accuracy alone does not count (request_game_review reviews it)"),
  })
  .describe('One game, as a row of the games list')
  .meta({ id: 'GameSummary' });
export type GameSummary = z.infer<typeof GameSummary>;

export const ClassificationCounts = z
  .object(Object.fromEntries(CLASSIFICATIONS.map((c) => [c, z.number().int().describe(`Moves classified ${c}`)])) as Record<
    (typeof CLASSIFICATIONS)[number],
    z.ZodNumber
  >)
  .describe('How many moves of the game fell in each classification');

export const CriticalMomentBrief = z.object({
  ply: z.number().int().describe('1-based ply; ply 1 is White’s first move'),
  move: z.string().describe('The move played, SAN'),
  type: z.string().describe('What kind of moment (e.g. blunder, mistake, missedWin, brilliant)'),
  evalSwing: z.number().describe('Swing of the evaluation in pawns, from the mover’s side'),
  description: z.string().describe('One sentence, templated from the numbers'),
});

export const GameReviewSummary = z
  .object({
    accuracyWhite: z.number().describe("White's accuracy (0-100), lichess method"),
    accuracyBlack: z.number().describe("Black's accuracy (0-100), lichess method"),
    accuracyForUser: z.number().describe("The owner's accuracy"),
    depth: z.number().int().describe('Median search depth reached per position'),
    engineVersion: z.string().describe('Engine name and version that produced the analysis'),
    analysedAt: Timestamp.describe('When the review completed'),
    classificationCounts: ClassificationCounts,
    criticalMoments: z.array(CriticalMomentBrief).describe('The game’s turning points; call get_critical_moments for detail'),
  })
  .describe('Engine review of the game; never carries per-ply evaluations (call get_game_analysis for those)');

export const GameDetail = GameSummary.extend({
  moves: z.array(z.string()).describe('Mainline moves in SAN; empty when no moves are known (none are ever invented)'),
  movesSource: z
    .enum(MOVES_SOURCES)
    .nullable()
    .describe('pgn: the full game is stored; opening-only: only the recorded opening line is known; null: no moves (attach a PGN with attach_pgn)'),
  pgn: z.string().nullable().describe('The stored PGN text, or null'),
  review: GameReviewSummary.nullable().describe('null unless the game has been reviewed (request_game_review)'),
  reviewRequest: z
    .object({
      status: z.enum(['queued', 'running', 'failed']).describe('Where the request is'),
      note: z.string().describe('For a failed one (abandoned included): why, and the next step'),
    })
    .nullable()
    .describe('The latest review request of an unreviewed game; null if reviewed or never asked'),
}).describe('One game with its moves and review');
export type GameDetail = z.infer<typeof GameDetail>;

export const ListGamesInput = z.object({
  page: z.number().int().min(1).default(1).describe('Page number (50 games a page); a page past the last falls back to 1'),
  sort: z.enum(GAME_SORTS).default('date-desc').describe('date-desc (default), date-asc, accuracy-desc, accuracy-asc (effective accuracy; games without one last)'),
  provider: providersCsv(GAME_PROVIDERS),
  result: csvOf(RESULTS, 'results'),
  colour: csvOf(COLOURS, 'colours'),
  timeClass: csvOf(RAW_TIME_CLASSES, 'raw time classes'),
  from: IsoDate.optional().describe('First day, YYYY-MM-DD (UTC), inclusive; from after to is a 400 naming both'),
  to: IsoDate.optional().describe('Last day, YYYY-MM-DD (UTC), inclusive'),
  movesMin: z.number().int().min(0).optional().describe('Minimum length in full moves, inclusive'),
  movesMax: z.number().int().min(0).optional().describe('Maximum length in full moves, inclusive'),
  opening: z.string().min(1).max(200).optional().describe('Opening-name prefix, case-insensitive (e.g. "Sicilian Defense")'),
  opponent: z.string().min(1).max(200).optional().describe('Opponent name contains, case-insensitive'),
  lineMoves: z.string().min(1).max(2000).optional().describe('Space-separated SAN opening-line prefix, case-sensitive (e.g. "e4 c5 Nf3"); take values from get_problem_lines'),
  q: z.string().min(1).max(200).optional().describe('Free text over opponent, opening, event and ECO code, case-insensitive'),
  reviewed: z.enum(REVIEWED_FILTERS).optional().describe("yes: only games this service's engine has reviewed; no: only games it has not"),
});
export type ListGamesInput = z.infer<typeof ListGamesInput>;

export const GameListFilters = z
  .object({
    q: z.string().nullable().describe('Free-text filter applied, or null'),
    providers: z.array(GameProvider).nullable().describe('Providers filtered on; null means all'),
    results: z.array(GameResult).nullable().describe('Results filtered on; null means all'),
    colours: z.array(Colour).nullable().describe('Colours filtered on; null means both'),
    timeClasses: z.array(RawTimeClass).nullable().describe('Raw time classes filtered on; null means all'),
    from: z.string().nullable().describe('Applied lower date bound (null when absent or dropped as inverted)'),
    to: z.string().nullable().describe('Applied upper date bound, inclusive (null when absent or dropped as inverted)'),
    movesMin: z.number().int().nullable().describe('Minimum length in full moves applied, or null'),
    movesMax: z.number().int().nullable().describe('Maximum length in full moves applied, or null'),
    opening: z.string().nullable().describe('Opening-name prefix applied, or null'),
    opponent: z.string().nullable().describe('Opponent-name fragment applied, or null'),
    lineMoves: z.string().nullable().describe('SAN line prefix applied (normalised spacing), or null'),
    reviewed: z.enum(REVIEWED_FILTERS).nullable().describe('Reviewed filter applied (yes or no), or null'),
    sort: z.enum(GAME_SORTS).describe('Sort order applied'),
  })
  .describe('The filters as parsed and applied');

export const GameList = z
  .object({
    filters: GameListFilters,
    page: z.number().int().describe('The page returned (1 when the requested page was past the last)'),
    pageCount: z.number().int().describe('Number of pages (at least 1)'),
    total: z.number().int().describe('Games matching the filters'),
    pageSize: z.number().int().describe('Games per page (50)'),
    games: z.array(GameSummary).describe('The games of this page, in the sort order'),
  })
  .describe('A page of the owner’s games');
export type GameList = z.infer<typeof GameList>;

export const GameIdInput = z.object({ id: z.string().min(1).max(100).describe('Game id from list_games') });

export { Classification };
