import { z } from 'zod';
import { STAT_TIME_CLASSES, SYNCED_PROVIDERS } from './common.js';

/**
 * The insight blocks of get_chess_stats (issue 15): figures players ask for most, computed from
 * stored reviews and clock readings. Every figure carries the number of games (or moves) behind
 * it and is null where there is no data, never 0 standing in for "unknown".
 */

const PhaseFigures = z
  .object({
    games: z.int().describe('Reviewed games with at least one of the owner’s moves in this phase'),
    moves: z.int().describe('The owner’s moves in this phase across those games'),
    averageAccuracy: z
      .number()
      .nullable()
      .describe('Mean of lichess’s per-move accuracy (AccuracyPercent: 103.1668·e^(−0.04354·win% lost) − 3.1669, +1, within 0-100) over those moves, one decimal; null with no moves'),
    errorsPer100Moves: z
      .number()
      .nullable()
      .describe('Moves classified mistake, miss or blunder per 100 of those moves, one decimal; null with no moves'),
  })
  .describe('The owner’s play in one phase of the reviewed games')
  .meta({ id: 'PhaseFigures' });

export const AccuracyByPhase = z
  .object({
    reviewedGames: z.int().describe('Reviewed games among the aggregated games (the only ones counted here)'),
    opening: PhaseFigures.describe('Opening phase (phase rule divider-v1, as get_game_analysis)'),
    middlegame: PhaseFigures.describe('Middlegame phase'),
    endgame: PhaseFigures.describe('Endgame phase'),
  })
  .describe('Accuracy and errors by game phase over the reviewed games; a move takes the phase of the position before it');

const SecondsFigure = z
  .object({
    moves: z.int().describe('Moves with a known time spent behind the figure'),
    games: z.int().describe('Games those moves come from'),
    averageSeconds: z.number().nullable().describe('Mean seconds spent per move (clock before − clock after + increment), one decimal; null with no moves'),
  })
  .describe('Average time spent per move')
  .meta({ id: 'SecondsFigure' });

export const TimeManagement = z
  .object({
    gamesWithClocks: z.int().describe('Aggregated games that carry clock readings and a parseable time control'),
    byPhase: z
      .object({ opening: SecondsFigure, middlegame: SecondsFigure, endgame: SecondsFigure })
      .describe('Seconds per move of the owner by phase, over reviewed games with clocks (the phase comes from the review)'),
    byTimeClass: z
      .array(SecondsFigure.extend({ timeClass: z.enum(STAT_TIME_CLASSES).describe('Time class (bullet, blitz, rapid, standard)') }))
      .describe('Seconds per move of the owner by time class, over games with clocks; only time classes with such games'),
    lowClock: z
      .object({
        moves: z.int().describe('The owner’s moves with a known clock'),
        movesUnder10Percent: z.int().describe('Of those, moves made with under 10% of the base time left on the clock before moving'),
        share: z.number().nullable().describe('movesUnder10Percent / moves in percent, one decimal; null with no moves'),
      })
      .describe('How much of the play happened in time trouble'),
    lostOnTime: z
      .object({
        games: z.int().describe('Aggregated games whose stored PGN records how the game ended (Termination header)'),
        lost: z.int().describe('Of those, games the owner lost on time (lichess "Time forfeit", chess.com "… won on time")'),
      })
      .describe('Games lost on time'),
    scoreWhenLow: z
      .object({
        games: z.int().describe('Games with clocks in which the owner’s clock fell below 10% of the base time'),
        win: z.int().describe('Wins among them'),
        draw: z.int().describe('Draws among them'),
        loss: z.int().describe('Losses among them'),
        score: z.number().nullable().describe('Points / games in percent (a draw counting half), one decimal; null with no games'),
      })
      .describe('How the owner scores once short of time'),
  })
  .describe('Time management from the clock readings of the aggregated games');

export const OpeningByEval = z
  .object({
    opening: z.string().describe('Opening family (the part of the name before the colon)'),
    games: z.int().describe('Aggregated games of this family'),
    score: z.number().describe('The owner’s points / games in percent, a draw counting half, one decimal'),
    afterMove10: z
      .object({
        games: z.int().describe('Reviewed games of the family that reached move 10 (ply 20)'),
        averagePawns: z.number().nullable().describe('Mean engine evaluation after move 10 from the owner’s side, in pawns clamped to ±5; null with no such games'),
      })
      .describe('The position the opening gives after move 10'),
    afterMove15: z
      .object({
        games: z.int().describe('Reviewed games of the family that reached move 15 (ply 30)'),
        averagePawns: z.number().nullable().describe('Mean engine evaluation after move 15 from the owner’s side, in pawns clamped to ±5; null with no such games'),
      })
      .describe('The position the opening gives after move 15'),
  })
  .describe('One opening family judged by the positions it gives as well as its results');

const MonthRating = z
  .object({
    provider: z.enum(SYNCED_PROVIDERS).describe('siteA (chess.com), siteB (lichess) or fed (over-the-board)'),
    timeClass: z.enum(STAT_TIME_CLASSES).describe('Time class (bullet, blitz, rapid, standard)'),
    rating: z.int().describe('Rating after the month’s last game that records one (rating before the game + its rating change)'),
  })
  .describe('End-of-month rating of one provider and time class');

export const TrendMonth = z
  .object({
    month: z.string().describe('Month (YYYY-MM, UTC)'),
    games: z.int().describe('Games that month'),
    score: z.number().describe('Points / games in percent, a draw counting half, one decimal'),
    accuracy: z
      .object({
        games: z.int().describe('Games that month with an accuracy (platform, else this project’s review)'),
        average: z.number().nullable().describe('Mean of those accuracies, one decimal; null when none'),
      })
      .describe('Average accuracy that month'),
    ratings: z.array(MonthRating).describe('End-of-month rating per provider and time class with a rated game that month (provider, then time class)'),
  })
  .describe('One month of the trend');

export const Insights = {
  accuracyByPhase: AccuracyByPhase,
  timeManagement: TimeManagement,
  openingsByEval: z
    .array(OpeningByEval)
    .describe('The top 20 opening families by games (as openings), with the average evaluation after moves 10 and 15 from reviewed games'),
  trend: z.array(TrendMonth).describe('Month by month, oldest first: games, score, accuracy and end-of-month ratings'),
};
