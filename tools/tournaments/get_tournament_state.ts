import { z } from 'zod';
import { TnrInput } from '../../schemas/public.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetTournamentStateOutput = z.object({}).describe('Get a tournament snapshot');

export const getTournamentState = defineTool({
  name: 'get_tournament_state',
  title: 'Get a tournament snapshot',
  description:
    "A short-lived snapshot of a chess-results.com tournament: name, rounds, players with ratings, points and per-round results, and the current round. snapshotAt says when it was read.",
  access: 'public',
  family: 'tournament',
  rest: { method: 'GET', path: '/api/v1/tournaments/{tnr}/state' },
  input: TnrInput,
  output: GetTournamentStateOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  statuses: [400, 404, 429, 502, 503],
  handler: () => {
    throw notAvailableYet('get_tournament_state');
  },
});
