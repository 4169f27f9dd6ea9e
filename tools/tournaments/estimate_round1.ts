import { z } from 'zod';
import { TargetedTnrInput } from '../../schemas/public.js';
import { round1Estimate } from '../../src/services/tournaments/index.js';
import { joinText } from '../outcomes.js';
import { defineTool } from '../defineTool.js';
import { AbsentPlayer, ByePlayer, EstimatedBoard, TOURNAMENT_ERRORS } from './shapes.js';

const EstimateRound1Output = z
  .object({
    tnr: z.string().describe('chess-results tournament number'),
    name: z.string().describe('Event name'),
    round: z.literal(1).describe('Always round 1'),
    isEstimate: z.literal(true).describe('Always true: derived from the seed list, not published pairings'),
    coloursReliable: z
      .boolean()
      .describe('False until round 1 is published: the initial colour is drawn by lot and White is assumed for the top seed on board 1; true once the published round 1 shows the lot, which the estimate then follows'),
    round1Published: z.boolean().describe('True when the site already shows round 1 pairings (read those instead)'),
    snapshotAt: z.string().describe('When the starting list was fetched'),
    boards: z.array(EstimatedBoard).describe('Top half against bottom half; only the target’s board when target is given'),
    byes: z.array(ByePlayer).describe('The lowest seed present when the field is odd'),
    absent: z.array(AbsentPlayer).describe('Not paired for round 1 (requested byes, absences): left out of the estimate'),
  })
  .describe('Estimated round-1 pairings');

export const estimateRound1 = defineTool({
  name: 'estimate_round1',
  title: 'Estimate round-1 pairings',
  description:
    joinText(["An estimate of round-1 pairings from the seed list (top half against bottom half). Colours are unreliable. target returns just that player's board. Players listed as not paired (requested byes, absences) are left out; everyone else is assumed to play.", TOURNAMENT_ERRORS]),
  access: 'public',
  family: 'tournament',
  rest: { method: 'GET', path: '/api/v1/tournaments/{tnr}/round1' },
  input: TargetedTnrInput,
  output: EstimateRound1Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  statuses: [400, 404, 429, 502, 503],
  handler: (ctx, input) => round1Estimate(ctx, input),
});
