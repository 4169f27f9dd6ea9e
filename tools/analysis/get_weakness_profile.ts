import { WeaknessInput, WeaknessProfile } from '../../schemas/analysis.js';
import { getWeaknessProfile as run, WEAKNESS_DEFINITIONS } from '../../src/services/stats/index.js';
import { defineTool } from '../defineTool.js';

export const getWeaknessProfile = defineTool({
  name: 'get_weakness_profile',
  title: 'Get my weakness profile',
  description: [
    "What goes wrong most across the owner's reviewed games in a window (range 30d, 90d, 1y default, all), ranked: the owner's moves are grouped into buckets by phase, concept, time class, colour, opening family and clock state, and each bucket's error rate is compared with the owner's overall error rate.",
    WEAKNESS_DEFINITIONS.error,
    WEAKNESS_DEFINITIONS.errorRate,
    WEAKNESS_DEFINITIONS.ranking,
    'Buckets with moves from under 5 reviewed games are listed under lowSample with counts and no rank; buckets with 5 or more that are not ranked are under unranked with the reason.',
    `Buckets: ${WEAKNESS_DEFINITIONS.buckets}`,
    'Only reviewed games count (request_game_review reviews one). Read-only, 10 per minute.',
  ].join(' '),
  access: 'personal',
  family: 'weakness',
  rest: { method: 'GET', path: '/api/v1/me/weakness-profile' },
  input: WeaknessInput,
  output: WeaknessProfile,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 429, 503],
  handler: (ctx, input) => run(ctx, input),
});
