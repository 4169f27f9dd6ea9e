import { z } from 'zod';

/**
 * Input and output of the Dutch-system next-round pairing engine (FIDE C.04.3).
 * Players are identified by starting rank (the pairing number, chess-results `No.`), 1-based.
 */

/** What happened to a player in one completed round. */
export const roundEntrySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('game').describe('A game was paired against an opponent (played or forfeited).'),
    opponent: z.number().int().positive().describe('Starting rank of the opponent.'),
    colour: z.enum(['white', 'black']).describe('Colour this player had.'),
    result: z
      .enum(['win', 'draw', 'loss', 'forfeitWin', 'forfeitLoss'])
      .describe('Result for this player. Forfeits are not played games: they count for points but not colours, and the pair may meet again.'),
  }),
  z.object({
    kind: z.literal('pab').describe('Pairing-allocated bye (full point, no opponent, no colour).'),
  }),
  z.object({
    kind: z.literal('halfBye').describe('Absent by request with a half point (H).'),
  }),
  z.object({
    kind: z.literal('absent').describe('Absent with zero points (Z), or otherwise not paired.'),
  }),
]);
export type RoundEntry = z.infer<typeof roundEntrySchema>;

export const playerStateSchema = z.object({
  startingRank: z.number().int().positive().describe('Pairing number 1..N; lower is ranked higher (ordered by rating).'),
  name: z.string().describe('Player name, for display only.'),
  rating: z.number().int().nonnegative().describe('Rating (0 when unrated), for display only; order comes from startingRank.'),
  points: z.number().nonnegative().describe('Points after the completed rounds (byes and forfeits included).'),
  history: z
    .array(roundEntrySchema)
    .describe('One entry per completed round, index 0 = round 1. Length must equal roundsPlayed.'),
  absentNextRound: z.boolean().describe('True when the player is known not to play the round being paired.'),
});
export type PlayerState = z.infer<typeof playerStateSchema>;

export const tournamentStateSchema = z.object({
  totalRounds: z.number().int().positive().describe('Rounds planned; the last round enables the topscorer rules.'),
  roundsPlayed: z.number().int().nonnegative().describe('Completed rounds; the round to pair is roundsPlayed + 1.'),
  initialColour: z
    .enum(['white', 'black'])
    .describe('Colour of the higher-ranked player on board 1 of round 1 (drawing of lots). Used for round 1 and as a tie-break of last resort.'),
  players: z.array(playerStateSchema).describe('Every registered player, absent ones included.'),
});
export type TournamentState = z.infer<typeof tournamentStateSchema>;

export const boardSchema = z.object({
  board: z.number().int().positive().describe('Board number from 1 (FIDE C.04.2 order).'),
  white: z.number().int().positive().describe('Starting rank of White.'),
  black: z.number().int().positive().describe('Starting rank of Black.'),
});
export type Board = z.infer<typeof boardSchema>;

export const pairingSchema = z.object({
  boards: z.array(boardSchema).describe('Boards in order.'),
  byes: z.array(z.number().int().positive()).describe('Starting rank receiving the pairing-allocated bye (zero or one).'),
});
export type Pairing = z.infer<typeof pairingSchema>;
