import { z } from 'zod';
import { AnalysisInput } from '../../schemas/analysis.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetGameAnalysisOutput = z.object({}).describe('Get per-ply analysis of a game');

export const getGameAnalysis = defineTool({
  name: 'get_game_analysis',
  title: 'Get per-ply analysis of a game',
  description:
    "Per-ply engine analysis of a reviewed game, paged (fromPly, limit up to 120, side both|user): evaluations in the side-to-move and mover frames, centipawn loss with the 500 cp cap, best move, alternatives, principal variation, classification, phase, clocks and deterministic concept tags. Starts no engine work; an unreviewed game answers analysed: false with the next step (request_game_review).",
  access: 'personal',
  family: 'analysis',
  rest: { method: 'GET', path: '/api/v1/me/games/{id}/analysis' },
  input: AnalysisInput,
  output: GetGameAnalysisOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 404, 429, 503],
  handler: () => {
    throw notAvailableYet('get_game_analysis');
  },
});
