import type { Ctx } from '../../context.js';
import { loadTournament } from './load.js';
import { resolveTnr } from './tnr.js';

/** get_tournament_state: the parsed snapshot, as read (no estimate, no assumption). */
export async function tournamentState(ctx: Ctx, input: { tnr: string }) {
  const tnr = resolveTnr(input.tnr, ctx.caller.surface);
  const t = await loadTournament(ctx.runtime.chessResults, tnr);
  const current = t.currentRound;
  const complete = current ? current.boards.every((b) => b.black === null || b.result !== null) : true;
  return {
    tnr,
    name: t.name,
    lastUpdate: t.lastUpdate,
    roundsPlayed: current && !complete ? t.roundsPaired - 1 : t.roundsPaired,
    roundsPaired: t.roundsPaired,
    roundsTotal: t.roundsTotal,
    snapshotAt: t.snapshotAt.toISOString(),
    players: t.players.map((p) => ({
      startingRank: p.startingRank,
      name: p.name,
      title: p.title,
      rating: p.rating,
      federation: p.federation,
      points: p.points,
      rounds: p.rounds,
    })),
    currentRound: current
      ? {
          round: current.round,
          complete,
          boards: current.boards.map((b) => ({
            board: b.board,
            white: b.white,
            black: b.black,
            result: b.result,
            bye: b.bye,
          })),
        }
      : null,
  };
}
