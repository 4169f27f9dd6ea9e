import { pairBracket } from './bracket.js';
import { canComplete, completer } from './byes.js';
import { allocate, type Colour } from './colours.js';
import { NoLegalPairingError } from './noLegalPairing.js';
import { pairingPlayers, scoreGroups, type PairingPlayer } from './scoreGroups.js';
import { tournamentStateSchema, type Board, type Pairing, type TournamentState } from './state.js';

export * from './state.js';
export { NoLegalPairingError } from './noLegalPairing.js';
export { parseTrf } from './trf.js';

/**
 * Pairs the next round (roundsPlayed + 1) by the FIDE Dutch system (C.04.3, 2025).
 * Throws NoLegalPairingError when no pairing satisfies the absolute criteria.
 */
export function pairNextRound(state: TournamentState): Pairing {
  const s = tournamentStateSchema.parse(state);
  checkConsistent(s);
  if (s.roundsPlayed >= s.totalRounds) throw new NoLegalPairingError('all rounds have been played');
  const players = pairingPlayers(s);
  if (players.length < 2) throw new NoLegalPairingError('fewer than two players take part in the round');
  if (!canComplete(players, 20000)) throw new NoLegalPairingError('no pairing avoids rematches for every player');

  restrictByeToLowestScore(players);

  const groups = scoreGroups(players);
  const pairs: Array<[PairingPlayer, PairingPlayer]> = [];
  let carried: PairingPlayer[] = [];
  let bye: PairingPlayer | null = null;
  for (let g = 0; g < groups.length; g++) {
    const last = g === groups.length - 1;
    const below = groups.slice(g + 1).flat();
    const bracket = [...carried, ...groups[g]];
    const result =
      pairBracket(bracket, {
        score: groups[g][0].score,
        initialColour: s.initialColour,
        last,
        next: { residents: groups[g + 1] ?? [], completesBelow: completer(groups.slice(g + 2).flat()) },
        byeFromAbove: players.length % 2 === 1 && !below.some((p) => p.byeEligible),
        completes: last ? () => true : completer(below),
      }) ?? (last ? null : { pairs: [], floaters: bracket });
    if (!result) throw new NoLegalPairingError('the lowest bracket cannot be completed');
    pairs.push(...result.pairs);
    carried = result.floaters;
    if (last) {
      if (carried.length > 1) throw new NoLegalPairingError('more than one player left unpaired');
      bye = carried[0] ?? null;
    }
  }
  return { boards: orderBoards(pairs, s.initialColour, s.roundsPlayed === 0), byes: bye ? [bye.rank] : [] };
}

/**
 * With an odd number of players, the pairing-allocated bye goes to a player of the lowest score for which the
 * rest of the round can still be paired (C.04.3 2025, completion; bbpPairings 6.0.0 fixes this score before
 * pairing the first bracket). Players above that score lose their eligibility for this round, so every
 * completion test and the last bracket respect it.
 */
function restrictByeToLowestScore(players: PairingPlayer[]): void {
  if (players.length % 2 === 0) return;
  const candidates = players.filter((p) => p.byeEligible).sort((a, b) => a.score - b.score || b.rank - a.rank);
  for (const p of candidates) {
    if (!canComplete(players.filter((q) => q !== p), 20000)) continue;
    for (const q of players) if (q.score > p.score) q.byeEligible = false;
    return;
  }
}

/** The engine trusts histories to be mutual; an adapter bug should fail loudly, not pair nonsense. */
function checkConsistent(s: TournamentState): void {
  const byRank = new Map(s.players.map((p) => [p.startingRank, p]));
  if (byRank.size !== s.players.length) throw new Error('invalid tournament state: duplicate starting ranks');
  for (const p of s.players) {
    if (p.history.length !== s.roundsPlayed) {
      throw new Error(`invalid tournament state: player ${p.startingRank} has ${p.history.length} rounds, expected ${s.roundsPlayed}`);
    }
    p.history.forEach((e, r) => {
      if (e.kind !== 'game') return;
      const o = byRank.get(e.opponent)?.history[r];
      if (!o || o.kind !== 'game' || o.opponent !== p.startingRank) {
        throw new Error(`invalid tournament state: round ${r + 1} game ${p.startingRank}-${e.opponent} is not recorded for both players`);
      }
    });
  }
}

/** Board order (C.04.2): higher score in the pair, then the lower score, then the higher-ranked player's number. */
function orderBoards(pairs: Array<[PairingPlayer, PairingPlayer]>, initialColour: Colour, round1: boolean): Board[] {
  const keyed = pairs.map(([a, b]) => {
    const hi = a.score > b.score || (a.score === b.score && a.rank < b.rank) ? a : b;
    return { a, b, max: Math.max(a.score, b.score), min: Math.min(a.score, b.score), top: hi.rank };
  });
  keyed.sort((x, y) => y.max - x.max || y.min - x.min || x.top - y.top);
  return keyed.map(({ a, b }, i) => {
    // Round 1: the drawing of lots alternates board by board, so the higher-ranked player takes the initial
    // colour on odd boards, whatever the pairing numbers after absences. In later rounds two players without a
    // played game follow E.5 by pairing number (the reference engine's choice on the large set's cases).
    const lots = round1;
    const hi = a.score > b.score || (a.score === b.score && a.rank < b.rank) ? a : b;
    const hiColour: Colour = i % 2 === 0 ? initialColour : initialColour === 'white' ? 'black' : 'white';
    const ca = lots ? (hi === a ? hiColour : hiColour === 'white' ? 'black' : 'white') : allocate(a, b, initialColour);
    return { board: i + 1, white: ca === 'white' ? a.rank : b.rank, black: ca === 'white' ? b.rank : a.rank };
  });
}
