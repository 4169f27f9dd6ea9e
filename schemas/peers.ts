import { z } from 'zod';
import { Colour, StatTimeClass } from './common.js';

/**
 * The owner's openings beside lichess's opening explorer at their level (issue 40): the shapes of the
 * chess-footprint://openings/{colour}/peers resource, its dashboard route, and get_chess_stats's
 * atYourLevel block. Scores are always from the owner's side (the side to move in the position).
 */

export const PEERS_STATES = ['ok', 'queued', 'fetching', 'partial', 'no-token', 'token-refused', 'no-level', 'error'] as const;

export const PeersLevel = z
  .object({
    timeClass: StatTimeClass.describe('The time class compared: the one with most of the owner’s games, unless named'),
    ratings: z.array(z.int()).describe('lichess explorer rating groups asked (each runs to the next group)'),
    speeds: z.array(z.string()).describe('lichess explorer speeds asked'),
    from: z.string().describe('Where the band came from (lichess rating, chess.com mapped, or named)'),
  })
  .describe('The rating band and speeds of the peers');

export const PeersStatus = z
  .object({
    state: z.enum(PEERS_STATES).describe('ok (all cached), queued/fetching, partial, or why nothing can be fetched'),
    message: z.string().nullable().describe('What to do next, when anything is missing'),
    positions: z.int().describe('The owner’s positions compared (see rules)'),
    cached: z.int().describe('Of those, positions with the explorer’s answer cached this month'),
    progress: z
      .object({ done: z.int().describe('Positions done'), total: z.int().describe('Positions to fetch'), requests: z.int().describe('Requests made') })
      .nullable()
      .describe('The fetch under way: positions done of total, requests made'),
    month: z.string().describe('The fetch month (YYYY-MM, UTC) the cache is read for'),
  })
  .describe('Whether the peers’ figures are fetched');

const PeerFigure = z
  .object({
    san: z.string().describe('Move, SAN'),
    games: z.int().describe('Peers’ games with the move'),
    share: z.number().describe('Percent of peers’ games in the position'),
    score: z.number().nullable().describe('Peers’ score with it, owner’s side, percent; null under the threshold'),
  })
  .describe('A move as the peers play it')
  .meta({ id: 'PeerFigure' });

export const PeersMove = z
  .object({
    san: z.string().describe('The owner’s move, SAN'),
    lineMoves: z.string().describe('The line including it, for list_games lineMoves'),
    games: z.int().describe('The owner’s games with it'),
    score: z.number().describe('The owner’s score with it, percent'),
    peers: PeerFigure.nullable().describe('The same move at the owner’s level; null when the peers never play it'),
  })
  .describe('One owner move beside the peers');

export const PeersPosition = z
  .object({
    lineMoves: z.string().describe('The line to the position, SAN from move 1'),
    games: z.int().describe('The owner’s games reaching it'),
    peerGames: z.int().describe('Peers’ games in the position'),
    mostPlayed: PeerFigure.nullable().describe('The peers’ most played move'),
    bestScoring: PeerFigure.nullable().describe('The peers’ best-scoring move with enough games'),
    masters: PeerFigure.nullable().optional().describe('The masters’ most played move, when asked'),
    moves: z.array(PeersMove).describe('The owner’s moves there, most games first'),
  })
  .describe('One position of the owner’s tree beside the peers');

export const PeersFinding = z
  .object({
    lineMoves: z.string().describe('The line to the position'),
    san: z.string().describe('The owner’s move there'),
    reasons: z.array(z.enum(['scoresWorse', 'rare'])).describe('scoresWorse and/or rare at the owner’s level'),
    games: z.int().describe('The owner’s games with the move'),
    score: z.number().describe('The owner’s score with it, percent'),
    peers: PeerFigure.nullable().describe('The move at the owner’s level'),
    alternative: PeerFigure.nullable().describe('The peers’ best-scoring other move'),
    pointsAtStake: z.number().nullable().describe('games × score gap / 100 (scoresWorse only)'),
    masters: PeerFigure.nullable().optional().describe('The masters’ most played move, when asked'),
  })
  .describe('A move of the owner’s worth a second look')
  .meta({ id: 'PeersFinding' });

export const PeersView = z
  .object({
    colour: Colour,
    level: PeersLevel.nullable(),
    status: PeersStatus,
    position: PeersPosition.nullable().describe('The position after moves, when compared'),
    findings: z.array(PeersFinding).describe('Ranked: scoresWorse by pointsAtStake, then rare by games'),
    rules: z.string(),
  })
  .describe('The owner’s opening tree beside lichess’s opening explorer at their level (chess-footprint://openings/{colour}/peers)');
export type PeersView = z.infer<typeof PeersView>;

export const PeersInput = z
  .object({
    colour: Colour.describe('The owner’s colour: white or black'),
    moves: z.string().max(600).optional().describe('Space-separated SAN moves from move 1; omit for the start'),
    band: z.coerce.number().int().optional().describe('A rating group to compare with (0, 1000, 1200 … 2200, 2500) instead of the owner’s rating'),
    timeClass: StatTimeClass.optional().describe('The time class to compare (default: the owner’s most played)'),
    masters: z.enum(['true', 'false']).optional().describe('true: also the masters’ move in each position'),
  })
  .strict();

/**
 * get_chess_stats's block, from what is cached (reading it fetches nothing). Kept small on purpose: every
 * client loads the tools/list listing into its context (test/mcp/listing.test.ts holds its budget), so each
 * colour is a few sentences (the top findings, or what is missing) and the structured view stays in the resource.
 */
export const AtYourLevel = z
  .object({
    white: z.array(z.string()).describe('As white'),
    black: z.array(z.string()).describe('As black'),
  })
  .describe('Top findings or what is missing; chess-footprint://openings/{colour}/peers');
