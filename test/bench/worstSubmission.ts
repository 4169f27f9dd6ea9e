import { Chess } from 'chess.js';

/** Stockfish's MAX_PLY (schemas/fishnet.ts): the longest PV a submission may carry. */
export const MAX_PV_PLIES = 246;

/**
 * The costliest legal analysis of a game: every position's PV as long as Stockfish can print (MAX_PLY moves), made of
 * a reversible four-ply cycle (a piece of the side to move out and back, one of the other side's likewise: issue 44's
 * `g1f3 g8f6 f3g1 f6g8`), legal however often repeated since each cycle returns the pieces where they were; cp 0, depth
 * 30. A position with no such cycle gets its first legal move alone. Refused: the last entry given `{"mate": 0}` on a
 * position that is not mate, which the server finds only after checking everything before it.
 */
export function worstSubmission(moves: readonly string[], refused: boolean) {
  const game = new Chess();
  const analysis: unknown[] = [];
  for (let i = 0; i <= moves.length; i++) {
    const options = game.moves({ verbose: true });
    const cycle = reversibleCycle(game.fen());
    const pv = cycle ? Array.from({ length: MAX_PV_PLIES }, (_, k) => cycle[k % 4]) : options.slice(0, 1).map((m) => m.from + m.to + (m.promotion ?? ''));
    analysis.push(pv.length ? { pv: pv.join(' '), depth: 30, score: { cp: 0 }, nodes: 900_000, time: 1_000 } : { depth: 0, score: game.isCheckmate() ? { mate: 0 } : { cp: 0 } });
    if (i < moves.length) game.move({ from: moves[i].slice(0, 2), to: moves[i].slice(2, 4), promotion: moves[i][4] });
  }
  if (refused) analysis[analysis.length - 1] = { pv: (analysis.at(-1) as { pv?: string }).pv, depth: 30, score: { mate: 0 } };
  return { stockfish: { flavor: 'nnue' }, analysis };
}

/** Four UCI moves that leave the placement as it was (out and back for each side), or null. */
function reversibleCycle(fen: string): string[] | null {
  const quiet = (c: Chess) => c.moves({ verbose: true }).filter((m) => m.piece !== 'p' && !m.captured && !m.san.startsWith('O-O'));
  const board = new Chess(fen);
  const placement = fen.split(' ')[0];
  for (const a of quiet(board)) {
    const afterA = new Chess(fen);
    afterA.move(a);
    for (const b of quiet(afterA)) {
      const c = new Chess(afterA.fen());
      c.move(b);
      try {
        c.move({ from: a.to, to: a.from });
        c.move({ from: b.to, to: b.from });
      } catch {
        continue;
      }
      if (c.fen().split(' ')[0] === placement) return [a.from + a.to, b.from + b.to, a.to + a.from, b.to + b.from];
    }
  }
  return null;
}
