import { z } from 'zod';
import { TnrInput } from '../../schemas/public.js';
import { tournamentState } from '../../src/services/tournaments/index.js';
import { joinText } from '../outcomes.js';
import { defineTool } from '../defineTool.js';
import { TOURNAMENT_ERRORS } from './shapes.js';

const Colour = z.enum(['white', 'black']).nullable().describe('Colour in that round; null without a game');

const Side = z.object({
  startingRank: z.number().int().describe('Starting number'),
  name: z.string().describe('Name as printed on the pairing page'),
  rating: z.number().int().nullable().describe('Rating as printed; null when the column is absent'),
  points: z.number().nullable().describe('Points before the round, as printed'),
});

const GetTournamentStateOutput = z
  .object({
    tnr: z.string().describe('chess-results tournament number'),
    name: z.string().describe('Event name'),
    lastUpdate: z.string().nullable().describe('The site’s own "Last update" time, local to the event (no zone given), e.g. 2026-08-10T17:06:46'),
    roundsPlayed: z.number().int().describe('Rounds whose every game has a result'),
    roundsPaired: z.number().int().describe('Rounds paired so far (the latest may still be in play)'),
    roundsTotal: z.number().int().nullable().describe('Rounds planned; null when the pages do not say'),
    snapshotAt: z.string().describe('When the oldest page combined here was fetched (pages are cached up to 60 s)'),
    players: z
      .array(
        z.object({
          startingRank: z.number().int().describe('Starting number (No.)'),
          name: z.string().describe('Name as on the starting list'),
          title: z.string().nullable().describe('Title (GM, IM, FM, ACM, …) or null'),
          rating: z.number().int().describe('Rating on the starting list (0 when unrated)'),
          federation: z.string().nullable().describe('Federation code'),
          points: z.number().describe('Points so far, including results already shown for the current round'),
          rounds: z
            .array(
              z.object({
                round: z.number().int().describe('Round number'),
                opponent: z.number().int().nullable().describe('Opponent’s starting number; null for a bye or absence'),
                colour: Colour,
                outcome: z
                  .enum(['win', 'draw', 'loss', 'forfeitWin', 'forfeitLoss', 'fullBye', 'halfBye', 'zeroBye', 'pending'])
                  .describe('What happened; pending = paired, no result yet'),
                points: z.number().nullable().describe('Points scored in the round; null while pending'),
              }),
            )
            .describe('One entry per paired round'),
        }),
      )
      .describe('Every player, by starting number'),
    currentRound: z
      .object({
        round: z.number().int().describe('The latest paired round'),
        complete: z.boolean().describe('True when every game of it has a result'),
        boards: z
          .array(
            z.object({
              board: z.number().int().describe('Board number'),
              white: Side.describe('White (or the player with the bye)'),
              black: Side.nullable().describe('Black; null on a bye or not-paired row'),
              result: z
                .enum(['1-0', '0-1', '½-½', '+--', '--+', '0-0', '---', '½-0', '0-½'])
                .nullable()
                .describe('Result from White’s side (+/- are forfeits); null while in play'),
              bye: z
                .object({
                  kind: z.enum(['bye', 'not paired']).describe('Pairing-allocated bye, or not paired'),
                  points: z.number().nullable().describe('Points awarded'),
                })
                .nullable()
                .describe('Set on a bye row'),
            }),
          )
          .describe('Pairings and results so far'),
      })
      .nullable()
      .describe('The latest paired round; null before round 1 is paired'),
  })
  .describe('A chess-results tournament snapshot');

export const getTournamentState = defineTool({
  name: 'get_tournament_state',
  title: 'Get a tournament snapshot',
  description:
    joinText(['A short-lived snapshot of a chess-results.com tournament: name, rounds, players with ratings, points and per-round results, and the current round. snapshotAt says when it was read.', TOURNAMENT_ERRORS]),
  access: 'public',
  family: 'tournament',
  rest: { method: 'GET', path: '/api/v1/tournaments/{tnr}/state' },
  input: TnrInput,
  output: GetTournamentStateOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  statuses: [400, 429, 502, 503],
  handler: (ctx, input) => tournamentState(ctx, input),
});
