import { z } from 'zod';
import { WeaknessInput } from '../../schemas/analysis.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetWeaknessProfileOutput = z.object({}).describe('Get my weakness profile');

export const getWeaknessProfile = defineTool({
  name: 'get_weakness_profile',
  title: 'Get my weakness profile',
  description:
    "What goes wrong most across the owner's reviewed games in a window, ranked: buckets by phase, concept, time class, colour, opening family and clock state compared with the owner's overall error rate. Buckets with under 5 reviewed games are listed under lowSample, unranked. 10 per minute.",
  access: 'personal',
  family: 'weakness',
  rest: { method: 'GET', path: '/api/v1/me/weakness-profile' },
  input: WeaknessInput,
  output: GetWeaknessProfileOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [400, 401, 429, 503],
  handler: () => {
    throw notAvailableYet('get_weakness_profile');
  },
});
