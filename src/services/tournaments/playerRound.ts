import { cellPoints, type CrossCell } from '../../sources/chessresults/parse.js';

/** A player's round as the tools report it. */
export type RoundOutcome = 'win' | 'draw' | 'loss' | 'forfeitWin' | 'forfeitLoss' | 'fullBye' | 'halfBye' | 'zeroBye' | 'pending';

export interface PlayerRound {
  round: number;
  opponent: number | null;
  colour: 'white' | 'black' | null;
  outcome: RoundOutcome;
  /** Points from this round; null while the game is in play. */
  points: number | null;
}

export const OUTCOME_POINTS: Record<RoundOutcome, number | null> = {
  win: 1, draw: 0.5, loss: 0, forfeitWin: 1, forfeitLoss: 0, fullBye: 1, halfBye: 0.5, zeroBye: 0, pending: null,
};

/** A crosstable cell as the round the tools report. */
export function playerRound(c: CrossCell, round: number): PlayerRound {
  if (c.kind !== 'game') return { round, opponent: null, colour: null, outcome: c.kind, points: cellPoints(c) };
  const outcome: RoundOutcome = c.result ?? 'pending';
  return { round, opponent: c.opponent, colour: c.colour, outcome, points: OUTCOME_POINTS[outcome] };
}
