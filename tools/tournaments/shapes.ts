import { z } from 'zod';
import { onlyHttp, say } from '../outcomes.js';
import { ABSENCE_KINDS, ABSENCE_SOURCES } from '../../src/services/tournaments/index.js';

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
    kind: z
      .enum(ABSENCE_KINDS)
      .describe(
        'halfBye ½, zeroBye 0, fullBye 1; halfByeOrAbsent: ½ or 0, the page does not say. The round page prints the points; the "not paired" list prints * for a requested half-point bye and an absence alike, so a player only the list names is halfByeOrAbsent.',
      ),
    seenOn: z.array(z.enum(ABSENCE_SOURCES)).describe('Naming pages: roundPage (art=2), notPairedList (art=40)'),
  })
  .describe('A player not paired');

/** The failures the three tournament tools share, in each surface's terms. */
export const TOURNAMENT_ERRORS = say`Errors: a bad tnr${{
  mcp: ' (digits or a chess-results.com URL), a target not on the list (not found), an unreadable source (layout changed, pages disagree or fetch failed; never partial data) or a full courtesy cap (retry later) is a tool error.',
  http: '',
}}${onlyHttp(' is 400 (digits only); a target not on the list is 404; an unreadable source (layout changed, pages disagree or fetch failed; never partial data) is 502; a full courtesy cap to chess-results is 503 with Retry-After (retry later).')}`;
