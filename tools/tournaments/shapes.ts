import { z } from 'zod';

/** Output pieces shared by the three tournament tools (fixed names from issue 7). */

export const EstimatedSide = z.object({
  startingRank: z.number().int().describe('Starting number (chess-results No., the pairing number)'),
  name: z.string().describe('Name as on the starting list'),
  rating: z.number().int().describe('Rating on the starting list (0 when unrated)'),
  points: z.number().describe('Points before the round being estimated'),
});

export const EstimatedBoard = z.object({
  board: z.number().int().describe('Board number from 1'),
  white: EstimatedSide.describe('The player estimated to have White'),
  black: EstimatedSide.describe('The player estimated to have Black'),
});

export const ByePlayer = z.object({
  startingRank: z.number().int().describe('Starting number'),
  name: z.string().describe('Name as on the starting list'),
});

export const TOURNAMENT_ERRORS =
  'Errors: 400 bad tnr (REST: digits only; MCP: digits or a chess-results.com URL); 404 target not found; 502 the source could not be read (layout changed or fetch failed; never partial data); 503 + Retry-After the outbound courtesy cap to chess-results is full (retry).';
