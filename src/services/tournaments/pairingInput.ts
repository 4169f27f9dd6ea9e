/** The bridge from a parsed chess-results tournament to the Dutch pairing engine's input (src/chess/pairing). */
import type { Pairing, PlayerState, RoundEntry, TournamentState } from '../../chess/pairing/index.js';
import { SourceUnreadable } from '../../sources/chessresults/errors.js';
import type { LoadedTournament } from './load.js';
import type { RoundOutcome } from './playerRound.js';

export type EngineRoundEntry = RoundEntry;
export type EnginePlayerState = PlayerState;
export type EngineTournamentState = TournamentState;
export type EnginePairing = Pairing;

/** A game of the current round still in play, and the result we assume for it (from White's side). */
export interface AssumedResult {
  round: number;
  white: number;
  black: number;
  whiteResult: 'win' | 'draw' | 'loss';
}

const INVERSE = { win: 'loss', draw: 'draw', loss: 'win' } as const;
const POINTS: Record<EngineRoundEntry['kind'] | 'win' | 'draw' | 'loss' | 'forfeitWin' | 'forfeitLoss', number> = {
  win: 1, draw: 0.5, loss: 0, forfeitWin: 1, forfeitLoss: 0, pab: 1, halfBye: 0.5, absent: 0, game: 0,
};

function entryPoints(e: EngineRoundEntry): number {
  return e.kind === 'game' ? POINTS[e.result] : POINTS[e.kind];
}

/**
 * The engine's input for the round after the latest paired one. Every game still in play must be given
 * an assumed result by `assume` (the estimate has to pretend the round is over); nothing else is invented.
 */
export function toEngineState(
  t: LoadedTournament,
  assume: (game: { round: number; white: number; black: number }) => 'win' | 'draw' | 'loss',
): { state: EngineTournamentState; assumed: AssumedResult[] } {
  if (t.roundsTotal === null) throw new SourceUnreadable('the number of rounds is not shown on the tournament pages');
  const assumed: AssumedResult[] = [];
  const whiteResult = new Map<string, 'win' | 'draw' | 'loss'>();
  const key = (round: number, white: number) => `${round}:${white}`;
  for (const p of t.players) {
    for (const r of p.rounds) {
      if (r.outcome !== 'pending' || r.colour !== 'white' || r.opponent === null) continue;
      const res = assume({ round: r.round, white: p.startingRank, black: r.opponent });
      whiteResult.set(key(r.round, p.startingRank), res);
      assumed.push({ round: r.round, white: p.startingRank, black: r.opponent, whiteResult: res });
    }
  }
  const absent = new Set(t.nextRoundAbsences.map((a) => a.startingRank));
  const players = t.players.map((p): EnginePlayerState => {
    const history = p.rounds.map((r): EngineRoundEntry => {
      const outcome: RoundOutcome = r.outcome;
      switch (outcome) {
        case 'fullBye':
          return { kind: 'pab' };
        case 'halfBye':
          return { kind: 'halfBye' };
        case 'zeroBye':
          return { kind: 'absent' };
        case 'pending': {
          const white = r.colour === 'white' ? p.startingRank : r.opponent!;
          const res = whiteResult.get(key(r.round, white));
          if (!res) throw new Error(`no assumed result for round ${r.round}, board with White ${white}`);
          return { kind: 'game', opponent: r.opponent!, colour: r.colour!, result: r.colour === 'white' ? res : INVERSE[res] };
        }
        default:
          return { kind: 'game', opponent: r.opponent!, colour: r.colour!, result: outcome };
      }
    });
    return {
      startingRank: p.startingRank,
      name: p.name,
      rating: p.rating,
      points: history.reduce((s, e) => s + entryPoints(e), 0),
      history,
      // Listed `not paired` on the round's own page: a requested bye or an absence, unpaired whatever its
      // points (C.04.3 A.1: only players present are paired); the kind is reported with the estimate.
      absentNextRound: absent.has(p.startingRank),
    };
  });
  return {
    state: { totalRounds: t.roundsTotal, roundsPlayed: t.roundsPaired, initialColour: initialColour(t), players },
    assumed,
  };
}

/**
 * The colour of the higher-ranked player on board 1 of round 1: in round 1 that board is the best-seeded
 * player who played, so it is that player's round-1 colour. Before round 1 it is unknown; we say White.
 */
export function initialColour(t: LoadedTournament): 'white' | 'black' {
  const first = [...t.players]
    .sort((a, b) => a.startingRank - b.startingRank)
    .find((p) => p.rounds[0]?.colour != null && p.rounds[0].opponent !== null && p.rounds[0].opponent > p.startingRank);
  return first?.rounds[0].colour ?? 'white';
}
