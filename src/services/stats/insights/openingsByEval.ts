import type { z } from 'zod';
import type { OpeningByEval } from '../../../../schemas/insights.js';
import { openingFamily } from '../../../chess/openings.js';
import type { InsightGame } from './load.js';
import { meanOf, round1, round2 } from '../../common/index.js';

/** "After move N" is the position once both sides have made N moves: ply 2N. */
export const EVAL_PLIES = { afterMove10: 20, afterMove15: 30 } as const;


/**
 * The top opening families (as the openings block ranks them) with the owner's score and the mean
 * evaluation after moves 10 and 15 from reviewed games. `evals` maps a reviewed game id to its
 * owner's-view evaluations at plies 20 and 30 (null past the end of the game).
 */
export function openingsByEval(
  games: readonly InsightGame[],
  evals: ReadonlyMap<string, readonly [number | null, number | null]>,
  top = 20,
): Array<z.infer<typeof OpeningByEval>> {
  const by = new Map<string, InsightGame[]>();
  for (const g of games) {
    if (!g.opening) continue;
    const fam = openingFamily(g.opening);
    const list = by.get(fam);
    if (list) list.push(g);
    else by.set(fam, [g]);
  }
  const mean = (xs: number[]) => {
    const { count, mean: averagePawns } = meanOf(xs, round2);
    return { games: count, averagePawns };
  };
  return [...by.entries()]
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, top)
    .map(([opening, xs]) => {
      const points = xs.reduce((s, g) => s + (g.result === 'win' ? 1 : g.result === 'draw' ? 0.5 : 0), 0);
      const at10: number[] = [];
      const at15: number[] = [];
      for (const g of xs) {
        const e = evals.get(g.id);
        if (e?.[0] != null) at10.push(e[0]);
        if (e?.[1] != null) at15.push(e[1]);
      }
      return { opening, games: xs.length, score: round1((100 * points) / xs.length), afterMove10: mean(at10), afterMove15: mean(at15) };
    });
}
