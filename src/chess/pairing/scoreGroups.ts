import { colourInfo, type ColourInfo, isPlayedGame } from './colours.js';
import type { TournamentState } from './state.js';

/** Everything the bracket search needs about one player taking part in the round to pair. */
export interface PairingPlayer {
  rank: number;
  score: number;
  colour: ColourInfo;
  /** Opponents of played games: a rematch is forbidden (C.04.3 C.1). Forfeited games do not count. */
  played: Set<number>;
  /** May still receive the pairing-allocated bye (no earlier PAB or forfeit win, C.04.1). */
  byeEligible: boolean;
  /** Float in the last round and the one before: 'down', 'up' or null (A.4). */
  float1: 'down' | 'up' | null;
  float2: 'down' | 'up' | null;
  /** Rounds without a played game (byes, absences, forfeits): C.9 gives the bye to the fewest. */
  unplayed: number;
  /** Last round only: more than half the maximum possible score so far, i.e. the rounds played (A.7 topscorer). */
  topscorer: boolean;
}

export function pairingPlayers(state: TournamentState): PairingPlayer[] {
  const byRank = new Map(state.players.map((p) => [p.startingRank, p]));
  const rounds = state.roundsPlayed;
  // Score before each round, to tell floats.
  const before = new Map<number, number[]>();
  for (const p of state.players) {
    const s: number[] = [0];
    for (const e of p.history) {
      const pts =
        e.kind === 'pab' ? 1 : e.kind === 'halfBye' ? 0.5 : e.kind === 'absent' ? 0
        : e.result === 'win' || e.result === 'forfeitWin' ? 1 : e.result === 'draw' ? 0.5 : 0;
      s.push(s[s.length - 1] + pts);
    }
    before.set(p.startingRank, s);
  }
  const floatIn = (rank: number, r: number): 'down' | 'up' | null => {
    if (r < 0) return null;
    const e = byRank.get(rank)!.history[r];
    if (!e) return null;
    // A.4 (1.4 in the 2025 numbering): a player who does not play in a round receives a downfloat. bbpPairings
    // 6.0.0, FIDE-endorsed, counts it only when the unplayed round scored more than a loss (getFloat in its
    // src/swisssystems/dutch.cpp): a pairing-allocated or half-point bye, a forfeit win; a zero-point absence or
    // a forfeit loss is no float. The reference cases follow that reading.
    if (e.kind !== 'game' || !isPlayedGame(e)) return before.get(rank)![r + 1] > before.get(rank)![r] ? 'down' : null;
    const mine = before.get(rank)![r];
    const theirs = before.get(e.opponent)?.[r] ?? mine;
    return mine > theirs ? 'down' : mine < theirs ? 'up' : null;
  };
  const lastRound = rounds + 1 === state.totalRounds;
  return state.players
    .filter((p) => !p.absentNextRound)
    .map((p) => ({
      rank: p.startingRank,
      score: p.points,
      colour: colourInfo(p.history),
      played: new Set(p.history.flatMap((e) => (e.kind === 'game' && isPlayedGame(e) ? [e.opponent] : []))),
      unplayed: p.history.filter((e) => !isPlayedGame(e)).length,
      byeEligible: !p.history.some((e) => e.kind === 'pab' || (e.kind === 'game' && e.result === 'forfeitWin')),
      float1: floatIn(p.startingRank, rounds - 1),
      float2: floatIn(p.startingRank, rounds - 2),
      topscorer: lastRound && p.points > state.roundsPlayed / 2,
    }))
    .sort(byScoreThenRank);
}

export function byScoreThenRank(a: PairingPlayer, b: PairingPlayer): number {
  return b.score - a.score || a.rank - b.rank;
}

/** Score groups, highest first. */
export function scoreGroups(players: PairingPlayer[]): PairingPlayer[][] {
  const groups: PairingPlayer[][] = [];
  for (const p of [...players].sort(byScoreThenRank)) {
    const g = groups[groups.length - 1];
    if (g && g[0].score === p.score) g.push(p);
    else groups.push([p]);
  }
  return groups;
}
