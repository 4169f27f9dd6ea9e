import { z } from 'zod';
import { Insights } from './insights.js';
import { AtYourLevel } from './peers.js';
import { Colour, csvOf, providersCsv, Range, STAT_TIME_CLASSES, StatTimeClass, SYNCED_PROVIDERS, SyncedProvider } from './common.js';

export const StatsInput = z.object({
  range: Range.default('1y').describe('Window: 30d, 90d, 1y (default) or all'),
  provider: providersCsv(SYNCED_PROVIDERS),
  timeClass: csvOf(STAT_TIME_CLASSES, 'time classes'),
  opening: z.string().min(1).max(200).optional().describe('Opening-family prefix, case-insensitive (e.g. "Sicilian Defense")'),
});
export type StatsInput = z.infer<typeof StatsInput>;

export const RatingsInput = z.object({
  range: Range.default('1y').describe('Window: 30d, 90d, 1y (default) or all'),
  provider: providersCsv(SYNCED_PROVIDERS),
  timeClass: csvOf(STAT_TIME_CLASSES, 'time classes'),
});
export type RatingsInput = z.infer<typeof RatingsInput>;

export const NoInput = z.object({});

// ---------------------------------------------------------------- shared pieces of the outputs

const Pct = (what: string) => z.number().describe(`${what}, in percent (0 to 100, one decimal)`);

export const Filters = z
  .object({
    range: Range.describe('The window asked for'),
    providers: z.array(SyncedProvider).nullable().describe('Providers filtered on; null means all'),
    timeClasses: z.array(StatTimeClass).nullable().describe('Time classes filtered on (bullet, blitz, rapid, standard); null means all'),
    opening: z.string().nullable().describe('Opening-family prefix filtered on; null means none'),
  })
  .describe('The filters as understood, echoed back')
  .meta({ id: 'Filters' });

export const Window = z
  .object({
    from: z.string().describe('First day of the window (YYYY-MM-DD, UTC); for range=all, the day of the earliest game or reading'),
    to: z.string().nullable().describe('Last day of the window (YYYY-MM-DD); null means up to now'),
  })
  .describe('The dates the figures cover')
  .meta({ id: 'Window' });

export const ResultCounts = z
  .object({
    games: z.number().int().describe('Games counted'),
    win: z.number().int().describe('Wins'),
    draw: z.number().int().describe('Draws'),
    loss: z.number().int().describe('Losses'),
    winRate: Pct('Wins / games'),
    score: Pct('Points scored / games, a draw counting half'),
  })
  .describe('Results of a group of games')
  .meta({ id: 'ResultCounts' });

export const AccuracySummary = z
  .object({
    games: z.number().int().describe('Games that have an accuracy (platform accuracy, or this project’s review when the platform has none)'),
    average: z.number().nullable().describe('Mean effective accuracy of those games (0 to 100, one decimal); null when none has one'),
  })
  .describe('Accuracy over games that have one')
  .meta({ id: 'AccuracySummary' });

export const GameRef = z
  .object({
    gameId: z.string().describe('Game id, for get_game'),
    playedAt: z.string().describe('When the game started (ISO 8601, UTC)'),
    provider: z.string().describe('Where it was played: siteA (chess.com), siteB (lichess), fed (over the board), manual or pgn'),
    timeClass: StatTimeClass.describe('Time class (bullet, blitz, rapid, standard)'),
    colour: Colour.describe('The owner’s colour'),
    result: z.enum(['win', 'draw', 'loss']).describe('The owner’s result'),
    opponent: z.string().describe('Opponent name'),
    opponentRating: z.number().int().describe('Opponent rating at the time'),
    userRating: z.number().int().nullable().describe('The owner’s rating before the game; null when the source gives none'),
    opening: z.string().nullable().describe('Opening name when known'),
  })
  .describe('A reference to one game')
  .meta({ id: 'GameRef' });

// ---------------------------------------------------------------- get_chess_stats

const TotalsLine = z
  .object({
    win: z.number().int().describe('Wins'),
    draw: z.number().int().describe('Draws'),
    loss: z.number().int().describe('Losses'),
    total: z.number().int().describe('Games'),
    winRate: Pct('Wins / total'),
    score: Pct('Points / total, a draw counting half'),
  })
  .describe('Results of one colour, or overall');

const Group = ResultCounts.extend({
  accuracy: AccuracySummary,
  averageOpponentRating: z.number().nullable().describe('Mean opponent rating over games that record one (rounded); null when none'),
}).describe('Results, accuracy and opponent strength of one group of games');

const Run = z
  .object({
    length: z.number().int().describe('Games in the run'),
    from: z.string().nullable().describe('When the run started (ISO 8601); null when length is 0'),
    to: z.string().nullable().describe('When the run ended (ISO 8601); null when length is 0'),
  })
  .describe('A run of consecutive games');

const Bucket = ResultCounts.extend({
  bucket: z.string().describe('Label of the bucket'),
  min: z.number().nullable().describe('Lower bound, inclusive; null means unbounded'),
  max: z.number().nullable().describe('Upper bound, inclusive; null means unbounded'),
});

export const Stats = z
  .object({
    filters: Filters,
    window: Window,
    games: z.number().int().describe('Games in the window after filters'),
    capped: z.boolean().describe('True when the window holds over 10,000 games: every aggregate then covers the most recent 10,000'),
    gamesAggregated: z.number().int().describe('Games the aggregates cover (games, or 10,000 when capped)'),
    totals: z
      .object({ white: TotalsLine, black: TotalsLine, overall: TotalsLine })
      .describe('Results as White, as Black and overall'),
    accuracy: AccuracySummary,
    onlineVsOverTheBoard: z
      .object({
        online: Group.describe('chess.com, lichess, manual and PGN-imported games'),
        overTheBoard: Group.describe('ECF over-the-board games (provider fed)'),
      })
      .describe('Online play compared with over-the-board play'),
    performance: z
      .object({
        games: z.number().int().describe('Games with a known opponent rating (the only ones counted)'),
        averageOpponentRating: z.number().nullable().describe('Mean opponent rating of those games (rounded)'),
        rating: z.number().int().nullable().describe('Performance rating = average opponent rating + 400 × (wins − losses) / games, rounded; null without rated opponents'),
      })
      .describe('Performance rating over the games with a known opponent rating'),
    bestWin: GameRef.nullable().describe('The win against the highest-rated opponent; null when no rated win'),
    worstDefeat: GameRef.nullable().describe('The loss against the lowest-rated opponent; null when no rated loss'),
    streaks: z
      .object({
        longestWin: Run.describe('Longest run of wins'),
        longestUnbeaten: Run.describe('Longest run without a loss'),
        longestLoss: Run.describe('Longest run of losses'),
        current: z
          .object({
            result: z.enum(['win', 'draw', 'loss']).nullable().describe('Result of the most recent game; null without games'),
            length: z.number().int().describe('How many consecutive most recent games share that result'),
            unbeaten: z.number().int().describe('How many consecutive most recent games were not lost'),
          })
          .describe('The streak the owner is on now'),
      })
      .describe('Streaks in chronological order over the aggregated games'),
    lastTen: ResultCounts.extend({
      results: z.array(z.enum(['win', 'draw', 'loss'])).describe('Results of the last (up to) 10 games, newest first'),
    }).describe('Form over the last 10 games'),
    weekdays: z
      .array(ResultCounts.extend({ weekday: z.string().describe('Day of the week (UTC), Monday first') }))
      .describe('Results by day of the week the game was played (UTC), seven entries'),
    opponentStrength: z
      .array(
        Bucket.extend({
          expectedScore: z.number().nullable().describe('Score the Elo expectation predicts for these games, in percent; null when the bucket has no games'),
        }).describe('Results against opponents rated within [min, max] points of the owner (opponent − owner)'),
      )
      .describe('Results by opponent rating relative to the owner’s own rating before each game; games without both ratings are left out'),
    gameLength: z
      .array(Bucket.describe('Results of games lasting between min and max full moves'))
      .describe('Results by game length in full moves; games without moves (over-the-board rows) are left out'),
    openings: z
      .array(
        ResultCounts.extend({
          opening: z.string().describe('Opening family (the part of the name before the colon)'),
          asWhite: z.number().int().describe('Games of it as White'),
          asBlack: z.number().int().describe('Games of it as Black'),
          accuracy: AccuracySummary,
        }),
      )
      .describe('Top 20 opening families by games played (ties by name)'),
    monthly: z
      .array(
        ResultCounts.extend({
          month: z.string().describe('Month (YYYY-MM, UTC)'),
          accuracy: AccuracySummary,
          averageOpponentRating: z.number().nullable().describe('Mean opponent rating that month (rounded); null when none'),
        }),
      )
      .describe('Form month by month, oldest first'),
    ...Insights,
    atYourLevel: AtYourLevel,
  })
  .describe('Aggregates over a window of the owner’s games');
export type Stats = z.infer<typeof Stats>;

// ---------------------------------------------------------------- get_rating_progress

export const RatingPoint = z
  .object({
    date: z.string().describe('Day (YYYY-MM-DD, UTC)'),
    rating: z.number().int().describe('Rating at the end of that day'),
  })
  .describe('One reading')
  .meta({ id: 'RatingPoint' });

export const RatingLine = z
  .object({
    provider: SyncedProvider.describe('siteA (chess.com), siteB (lichess) or fed (ECF over-the-board)'),
    timeClass: StatTimeClass.describe('Time class (bullet, blitz, rapid, standard)'),
    points: z.array(RatingPoint).describe('One point per day with a reading, oldest first; at most 60'),
    pointsDownsampled: z.boolean().describe('True when the window had over 60 daily points and they were evenly thinned (first and last kept)'),
    start: z.number().describe('Rating entering the window: the latest reading before it, else the first reading in it'),
    end: z.number().describe('Latest rating in the window'),
    delta: z.number().describe('end − start'),
    seededFromBefore: z.boolean().describe('True when start is the standing rating from before the window'),
  })
  .describe('Rating of one provider and time class over the window')
  .meta({ id: 'RatingLine' });
export type RatingLine = z.infer<typeof RatingLine>;

export const RatingLines = z
  .object({
    filters: Filters.omit({ opening: true }).describe('The filters as understood, echoed back'),
    window: Window,
    lines: z.array(RatingLine).describe('One line per provider and time class with a reading in the window'),
  })
  .describe('Rating progress');
export type RatingLines = z.infer<typeof RatingLines>;

// ---------------------------------------------------------------- get_problem_lines

export const ProblemLine = z
  .object({
    colour: Colour.describe('The colour the owner had in these games'),
    lineMoves: z.string().describe('The line as space-separated SAN from move 1; pass it to list_games as lineMoves to see the games'),
    plies: z.number().int().describe('Length of the line in plies (6 to 24)'),
    games: z.number().int().describe('Games that followed the line'),
    score: z.number().describe('The owner’s score in those games, in percent'),
    baseline: z.number().describe('The owner’s score over all games with moves of this colour, in percent'),
    drop: z.number().describe('baseline − score, in percentage points (at least 8)'),
    struggleIndex: z.number().describe('drop × log2(games): how much, and how often, the line hurts'),
    win: z.number().int().describe('Wins in the line'),
    draw: z.number().int().describe('Draws in the line'),
    loss: z.number().int().describe('Losses in the line'),
    exampleGameIds: z.array(z.string()).describe('Up to 5 of those games, most recent first, for get_game'),
  })
  .describe('An opening line the owner struggles in');

export const ProblemLines = z
  .object({
    lines: z.array(ProblemLine).describe('Problem lines, highest struggle index first (at most 30)'),
    baselines: z
      .object({
        white: ResultCounts.describe('All games with moves as White'),
        black: ResultCounts.describe('All games with moves as Black'),
      })
      .describe('The colour baselines the lines are compared with'),
    rules: z.string().describe('How lines are chosen, in one sentence'),
  })
  .describe('Problem opening lines');
export type ProblemLines = z.infer<typeof ProblemLines>;

// ---------------------------------------------------------------- get_puzzle_stats

export const PuzzleStats = z
  .object({
    window: Window.describe('The span the volume covers: from the first recorded attempt to today'),
    summary: z
      .object({
        from: z.string().describe('First day of the 12 weeks (YYYY-MM-DD)'),
        to: z.string().describe('Last day of the 12 weeks (today, YYYY-MM-DD)'),
        attempts: z.number().int().describe('Puzzles attempted in the last 12 weeks'),
        solved: z.number().int().describe('Of those, solved'),
        winRate: z.number().nullable().describe('solved / attempts, in percent (0 to 100, one decimal); null with no attempts'),
        averagePuzzleRating: z.number().nullable().describe('Mean rating of the puzzles attempted (rounded); null when none recorded'),
      })
      .describe('The last 12 weeks'),
    volume: z
      .object({
        bucket: z.enum(['day', 'week', 'month']).describe('Bucket size: day for up to 31 days of history, week up to 26 weeks, month beyond'),
        points: z
          .array(
            z.object({
              period: z.string().describe('First day of the bucket (YYYY-MM-DD; weeks start on Monday)'),
              attempts: z.number().int().describe('Puzzles attempted'),
              solved: z.number().int().describe('Puzzles solved'),
            }),
          )
          .describe('Every bucket of the window, oldest first, empty ones included'),
      })
      .describe('How much the owner trains over time'),
    ratings: z
      .object({
        siteB: z
          .object({
            current: z.number().int().nullable().describe('Latest lichess puzzle rating; null when none recorded'),
            points: z.array(RatingPoint).describe('Daily readings, oldest first; at most 60 (evenly thinned, first and last kept)'),
            pointsDownsampled: z.boolean().describe('True when the series was thinned'),
          })
          .describe('lichess puzzle rating'),
        siteA: z
          .object({
            peak: z.number().int().nullable().describe('Highest chess.com tactics rating ever reached; null when none recorded'),
            peakDate: z.string().nullable().describe('Day the peak was read (YYYY-MM-DD)'),
            peakOnly: z.literal(true).describe('Always true: chess.com publishes only the peak (and low), never a current tactics rating'),
          })
          .describe('chess.com tactics'),
      })
      .describe('Puzzle rating series'),
  })
  .describe('Puzzle activity and ratings');
export type PuzzleStats = z.infer<typeof PuzzleStats>;

// ---------------------------------------------------------------- get_weekly_report

export const ReportSection = z
  .object({
    provider: SyncedProvider.describe('siteA (chess.com), siteB (lichess) or fed (over-the-board)'),
    label: z.string().describe('Human name of the source'),
    games: z.number().int().describe('Games played in the week'),
    results: ResultCounts.describe('Results in the week'),
    ratingLines: z.array(RatingLine).describe('Rating per time class over the week (start seeded from before the week)'),
    bestWin: GameRef.nullable().describe('Win against the highest-rated opponent; null when none'),
    toughestDefeat: GameRef.nullable().describe('Loss against the lowest-rated opponent (the costliest); null when none'),
  })
  .describe('One source in the week')
  .meta({ id: 'ReportSection' });
export type ReportSection = z.infer<typeof ReportSection>;

export const WeeklyReport = z
  .object({
    weekStart: z.string().describe('Saturday the week began (YYYY-MM-DD, UTC)'),
    weekEnd: z.string().describe('Friday the week ended (YYYY-MM-DD, UTC); the week runs Saturday 00:00 to Friday 24:00 UTC'),
    generatedAt: z.string().describe('When the report was generated and frozen (ISO 8601)'),
    shareUrl: z.string().describe('Public, unguessable link to the same report as a readable page'),
    sections: z
      .object({ siteA: ReportSection, siteB: ReportSection, fed: ReportSection })
      .describe('chess.com, lichess and over-the-board'),
    puzzles: z
      .object({
        attempts: z.number().int().describe('Puzzles attempted in the week'),
        solved: z.number().int().describe('Solved'),
        winRate: z.number().nullable().describe('solved / attempts, in percent (0 to 100, one decimal); null with no attempts'),
        siteBRating: z
          .object({
            start: z.number().int().describe('Puzzle rating entering the week'),
            end: z.number().int().describe('Puzzle rating at the end of the week'),
            delta: z.number().int().describe('end − start'),
          })
          .nullable()
          .describe('lichess puzzle rating over the week; null when no reading'),
      })
      .describe('Puzzles in the week'),
  })
  .describe('A frozen weekly report');
export type WeeklyReport = z.infer<typeof WeeklyReport>;
