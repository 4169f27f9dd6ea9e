import { z } from 'zod';
import { onlyHttp, say } from '../outcomes.js';
import { ABSENCE_KINDS } from '../../src/services/tournaments/index.js';

/** Output pieces shared by the three tournament tools (fixed names from issue 7). */

export const EstimatedSide = z
  .object({
    startingRank: z.number().int().describe('Starting number (chess-results No., the pairing number)'),
    name: z.string().describe('Name as on the starting list'),
    rating: z.number().int().describe('Rating on the starting list (0 when unrated)'),
    points: z.number().describe('Points before the round being estimated'),
  })
  .describe('A player in an estimated pairing')
  .meta({ id: 'EstimatedSide' });

export const EstimatedBoard = z
  .object({
    board: z.number().int().describe('Board number from 1'),
    white: EstimatedSide.describe('The player estimated to have White'),
    black: EstimatedSide.describe('The player estimated to have Black'),
  })
  .describe('One estimated board')
  .meta({ id: 'EstimatedBoard' });

export const ByePlayer = z.object({
  startingRank: z.number().int().describe('Starting number'),
  name: z.string().describe('Name as on the starting list'),
});

export const AbsentPlayer = z
  .object({
    startingRank: z.number().int().describe('Starting number'),
    name: z.string().describe('Name as on the starting list'),
    kind: z.enum(ABSENCE_KINDS).describe('halfBye: a requested half-point bye (½ on the page); zeroBye: absent for 0; fullBye: absent for 1'),
  })
  .describe('A player the round’s own chess-results page lists as "not paired" before the round is paired; left out of the pairing');

/** The failures the three tournament tools share, in each surface's terms. */
export const TOURNAMENT_ERRORS = say`Errors: a bad tnr is ${400} (${onlyHttp('digits only')}${{ mcp: 'digits or a chess-results.com URL', http: '' }}); a target not on the list is ${404}; a source that could not be read (layout changed or fetch failed; never partial data) is ${502}; a full outbound courtesy cap to chess-results is ${503}${onlyHttp(' with Retry-After')} (retry later).`;
