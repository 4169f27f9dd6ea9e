import { z } from 'zod';
import { TargetedTnrInput } from '../../schemas/public.js';
import { pairingsEstimate } from '../../src/services/tournaments/index.js';
import { joinText, say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';
import { AbsentPlayer, ByePlayer, EstimatedBoard, TOURNAMENT_ERRORS } from './shapes.js';

const Named = z.object({
  startingRank: z.number().int().describe('Starting number'),
  name: z.string().describe('Name as on the starting list'),
});

const EstimatePairingsOutput = z
  .object({
    tnr: z.string().describe('chess-results tournament number'),
    name: z.string().describe('Event name'),
    round: z.number().int().describe('The round estimated (the one after the latest paired round)'),
    isEstimate: z.literal(true).describe('Always true: computed here by the FIDE Dutch system, not published'),
    snapshotAt: z.string().describe('When the oldest page used was fetched'),
    boards: z.array(EstimatedBoard).describe('Estimated boards in FIDE board order'),
    byes: z.array(ByePlayer).describe('The pairing-allocated bye, if any'),
    absent: z.array(AbsentPlayer).describe('Not paired for the round (requested byes, absences): left out of the estimate and the what-if table'),
    assumedResults: z
      .array(
        z.object({
          round: z.number().int().describe('Round of the game'),
          white: Named.describe('White'),
          black: Named.describe('Black'),
          assumed: z.enum(['1-0', '½-½', '0-1']).describe('The result assumed for it'),
        }),
      )
      .describe('Games still in play that the estimate assumed drawn (empty when the round is complete)'),
    whatIf: z
      .array(
        z.object({
          result: z.enum(['win', 'draw', 'loss']).describe('A result of the target’s current game'),
          opponent: Named.nullable().describe('The target’s likely next opponent; null on a bye'),
          colour: z.enum(['white', 'black']).nullable().describe('The target’s likely colour; null on a bye'),
          bye: z.boolean().describe('True when the target would get the pairing-allocated bye'),
        }),
      )
      .optional()
      .describe('With target: one row per possible result of the target’s game in play (only the real one when decided; empty without a game)'),
  })
  .describe('Estimated next-round pairings');

export const estimatePairings = defineTool({
  name: 'estimate_pairings',
  title: 'Estimate the next round pairings',
  description:
    joinText(["An estimate of the next round of a Swiss tournament by the FIDE Dutch system; target adds a what-if table of that player's likely opponent and colour for each result of their current game. Games still in play are assumed drawn (listed in assumedResults); players listed as not paired are left out (listed in absent).", say`When no legal pairing exists (all rounds played, too few players) the answer is ${409}.`, TOURNAMENT_ERRORS]),
  access: 'public',
  family: 'tournament',
  rest: { method: 'GET', path: '/api/v1/tournaments/{tnr}/pairings' },
  input: TargetedTnrInput,
  output: EstimatePairingsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  statuses: [400, 404, 409, 429, 502, 503],
  handler: (ctx, input) => pairingsEstimate(ctx, input),
});
