import { z } from 'zod';
import { CriticalMomentsInput } from '../../schemas/analysis.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetCriticalMomentsOutput = z.object({}).describe('Get the critical moments of a game');

export const getCriticalMoments = defineTool({
  name: 'get_critical_moments',
  title: 'Get the critical moments of a game',
  description:
    "The turning points of a reviewed game, most severe kept (maxMoments), in ply order: what was played, what the engine wanted and why the played move fails (refutation), templated summary, hints that narrow without naming the move, a training question and acceptable answers. minCentipawnLoss adds derived moments. Starts no engine work.",
  access: 'personal',
  family: 'analysis',
  rest: { method: 'GET', path: '/api/v1/me/games/{id}/critical-moments' },
  input: CriticalMomentsInput,
  output: GetCriticalMomentsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 404, 429, 503],
  handler: () => {
    throw notAvailableYet('get_critical_moments');
  },
});
