import type { Ctx } from '../../context.js';
import { noLegalPairing } from '../../sources/chessresults/errors.js';
import { dutchEngine, isNoLegalPairing, type PairingEngine } from './engine.js';
import { loadAbsences, type Absence } from './absences.js';
import { loadSeedList, loadTournament, type LoadedPlayer, type LoadedTournament } from './load.js';
import type { RoundPairings } from '../../sources/chessresults/parse.js';
import { toEngineState, type AssumedResult, type EngineTournamentState } from './pairingInput.js';
import { estimateRound1, type EstimatedBoard } from './round1.js';
import { findTarget } from './target.js';
import { resolveTnr } from './tnr.js';

export interface Estimate {
  tnr: string;
  round: number;
  isEstimate: true;
  snapshotAt: string;
  boards: EstimatedBoard[];
  byes: Array<{ startingRank: number; name: string }>;
}

/**
 * The drawing of lots, once round 1 is published: the higher-ranked player of its first board got the
 * initial colour (C.04.3 E.5; the first board with two players, so a bye row cannot mislead).
 */
function lotOf(round1: RoundPairings | null): 'white' | 'black' | null {
  const b = round1?.boards.find((x) => x.black !== null);
  if (!b?.black) return null;
  return b.white.startingRank < b.black.startingRank ? 'white' : 'black';
}

/**
 * The round-1 estimate: the seed list, and round 1's own page for its absences (and the lot, once paired);
 * before round 1 is paired, also the `not paired` list (absences.ts).
 */
export async function round1Estimate(ctx: Ctx, input: { tnr: string; target?: string }) {
  const tnr = resolveTnr(input.tnr, ctx.caller.surface);
  const { meta, players, page } = await loadSeedList(ctx.runtime.chessResults, tnr);
  const r1 = await loadAbsences(ctx.runtime.chessResults, tnr, 1, players, { linkedAsPaired: meta.roundsPaired > 0 });
  const lot = lotOf(r1.pairings);
  const { boards, byes } = estimateRound1(players, { absent: new Set(r1.absences.map((a) => a.startingRank)), initialColour: lot ?? undefined });
  let shownBoards = boards;
  let shownByes = byes;
  if (input.target) {
    const who = findTarget(players, input.target);
    shownBoards = boards.filter((b) => b.white.startingRank === who.startingRank || b.black.startingRank === who.startingRank);
    shownByes = byes.filter((p) => p.startingRank === who.startingRank);
  }
  return {
    tnr,
    name: meta.name,
    round: 1 as const,
    isEstimate: true as const,
    coloursReliable: lot !== null,
    round1Published: meta.roundsPaired > 0,
    snapshotAt: new Date(Math.min(...[page, ...r1.pages].map((pg) => pg.fetchedAt.getTime()))).toISOString(),
    boards: shownBoards,
    byes: shownByes.map((p) => ({ startingRank: p.startingRank, name: p.name })),
    absent: r1.absences.map(describeAbsence),
  };
}

type WhatIfResult = 'win' | 'draw' | 'loss';

export interface WhatIfRow {
  result: WhatIfResult;
  opponent: { startingRank: number; name: string } | null;
  colour: 'white' | 'black' | null;
  bye: boolean;
}

function pairOrConflict(engine: PairingEngine, state: EngineTournamentState) {
  try {
    return engine.pairNextRound(state);
  } catch (err) {
    if (isNoLegalPairing(err)) throw noLegalPairing(err.message);
    throw err;
  }
}

/**
 * The next round by the FIDE Dutch engine. Games of the current round still in play are assumed drawn
 * (listed in `assumedResults`); with `target`, the target's own game is instead set to each of win,
 * draw and loss in turn and the round re-paired, giving the what-if table.
 */
export async function pairingsEstimate(
  ctx: Ctx,
  input: { tnr: string; target?: string },
  engine: PairingEngine = dutchEngine,
) {
  const tnr = resolveTnr(input.tnr, ctx.caller.surface);
  const t = await loadTournament(ctx.runtime.chessResults, tnr, { nextRoundAbsences: true });
  const target = input.target ? findTarget(t.players, input.target) : null;
  if (t.roundsTotal !== null && t.roundsPaired >= t.roundsTotal) {
    throw noLegalPairing(`all ${t.roundsTotal} rounds are already paired; there is no next round`);
  }
  if (t.players.length < 2) throw noLegalPairing('fewer than two players are registered');

  const base = toEngineState(t, () => 'draw');
  const pairing = pairOrConflict(engine, base.state);
  const round = t.roundsPaired + 1;
  const byRank = new Map(t.players.map((p) => [p.startingRank, p]));
  const pointsBefore = new Map(base.state.players.map((p) => [p.startingRank, p.points]));
  const side = (rank: number) => {
    const p = byRank.get(rank)!;
    return { startingRank: rank, name: p.name, rating: p.rating, points: pointsBefore.get(rank) ?? 0 };
  };
  const answer = {
    tnr,
    name: t.name,
    round,
    isEstimate: true as const,
    snapshotAt: t.snapshotAt.toISOString(),
    boards: pairing.boards.map((b) => ({ board: b.board, white: side(b.white), black: side(b.black) })),
    byes: pairing.byes.map((r) => ({ startingRank: r, name: byRank.get(r)!.name })),
    absent: t.nextRoundAbsences.map(describeAbsence),
    assumedResults: base.assumed.map((a) => describeAssumed(a, byRank)),
    whatIf: undefined as WhatIfRow[] | undefined,
  };
  if (target) answer.whatIf = whatIf(engine, t, target);
  else delete answer.whatIf;
  return answer;
}

function describeAbsence(a: Absence) {
  return { startingRank: a.startingRank, name: a.name, kind: a.kind, seenOn: a.seenOn };
}

function describeAssumed(a: AssumedResult, byRank: Map<number, LoadedPlayer>) {
  return {
    round: a.round,
    white: { startingRank: a.white, name: byRank.get(a.white)!.name },
    black: { startingRank: a.black, name: byRank.get(a.black)!.name },
    assumed: a.whiteResult === 'draw' ? ('½-½' as const) : a.whiteResult === 'win' ? ('1-0' as const) : ('0-1' as const),
  };
}

const FLIP = { win: 'loss', draw: 'draw', loss: 'win' } as const;

/**
 * One row per possible result of the target's game in the current round. When that game is already
 * decided, only its real result is shown; when the target has no game in play (a bye, a forfeit, or no
 * round yet), the table is empty.
 */
function whatIf(engine: PairingEngine, t: LoadedTournament, target: LoadedPlayer): WhatIfRow[] {
  const current = target.rounds[t.roundsPaired - 1];
  if (!current || current.opponent === null || current.colour === null) return [];
  let results: WhatIfResult[];
  if (current.outcome === 'pending') results = ['win', 'draw', 'loss'];
  else if (current.outcome === 'win' || current.outcome === 'draw' || current.outcome === 'loss') results = [current.outcome];
  else return [];
  const byRank = new Map(t.players.map((p) => [p.startingRank, p]));
  return results.map((result) => {
    const { state } = toEngineState(t, (g) => {
      if (g.white === target.startingRank) return result;
      if (g.black === target.startingRank) return FLIP[result];
      return 'draw';
    });
    const pairing = pairOrConflict(engine, state);
    const board = pairing.boards.find((b) => b.white === target.startingRank || b.black === target.startingRank);
    if (!board) return { result, opponent: null, colour: null, bye: pairing.byes.includes(target.startingRank) };
    const colour = board.white === target.startingRank ? ('white' as const) : ('black' as const);
    const opp = colour === 'white' ? board.black : board.white;
    return { result, opponent: { startingRank: opp, name: byRank.get(opp)!.name }, colour, bye: false };
  });
}
