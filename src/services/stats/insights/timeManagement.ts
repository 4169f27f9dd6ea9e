import type { z } from 'zod';
import type { TimeManagement } from '../../../../schemas/insights.js';
import { STAT_TIME_CLASSES } from '../../../../schemas/common.js';
import { parseClocks, plyClock } from '../../../chess/clocks.js';
import { PHASES, type Phase } from '../../../chess/phase.js';
import type { OwnerMoveFact } from '../../review/index.js';
import type { InsightGame } from './load.js';
import { round1, scorePercent } from '../../common/index.js';

/** "Short of time": under this share of the base time on the clock. */
export const LOW_CLOCK_SHARE = 0.1;

/** lichess writes "Time forfeit" (either side); chess.com "<player> won on time". Only a loss counts here. */
const ON_TIME = /time forfeit|won on time/i;


interface Tally {
  seconds: number;
  moves: number;
  games: Set<string>;
}
const tally = (): Tally => ({ seconds: 0, moves: 0, games: new Set() });
const figure = (t: Tally) => ({ moves: t.moves, games: t.games.size, averageSeconds: t.moves ? round1(t.seconds / t.moves) : null });

/**
 * Time management over the aggregated games. Clock readings are the seconds left after each ply
 * (games.clocks); the owner's plies are the odd ones as White, the even ones as Black (standard
 * start). `reviewedFacts` gives the phase of each owner's move in reviewed games.
 */
export function timeManagement(games: readonly InsightGame[], reviewedFacts: ReadonlyMap<string, readonly OwnerMoveFact[]>): z.infer<typeof TimeManagement> {
  const byPhase = Object.fromEntries(PHASES.map((p) => [p, tally()])) as Record<Phase, Tally>;
  const byClass = new Map<string, Tally>();
  let withClocks = 0;
  let clockMoves = 0;
  let lowMoves = 0;
  const low = { games: 0, win: 0, draw: 0, loss: 0 };
  let terminated = 0;
  let lostOnTime = 0;

  for (const g of games) {
    if (g.termination !== null) {
      terminated += 1;
      if (g.result === 'loss' && ON_TIME.test(g.termination)) lostOnTime += 1;
    }
    const base = g.timeControl?.baseSeconds ?? null;
    const clocks = base ? parseClocks(g.clocksJson) : null;
    if (!clocks || !base) continue;
    withClocks += 1;
    const facts = reviewedFacts.get(g.id);
    const cls = byClass.get(g.timeClass) ?? tally();
    byClass.set(g.timeClass, cls);
    let fellLow = false;
    let ownerMove = 0;
    for (let ply = g.colour === 'white' ? 1 : 2; ply <= clocks.length; ply += 2, ownerMove += 1) {
      const c = plyClock(clocks, ply, g.timeControl);
      if (c.clockSecondsBefore !== null) {
        clockMoves += 1;
        if (c.clockSecondsBefore < LOW_CLOCK_SHARE * base) lowMoves += 1;
      }
      if (c.clockSecondsAfter !== null && c.clockSecondsAfter < LOW_CLOCK_SHARE * base) fellLow = true;
      if (c.timeSpentSeconds === null) continue;
      cls.seconds += c.timeSpentSeconds;
      cls.moves += 1;
      cls.games.add(g.id);
      const phase = facts?.[ownerMove]?.phase;
      if (phase) {
        byPhase[phase].seconds += c.timeSpentSeconds;
        byPhase[phase].moves += 1;
        byPhase[phase].games.add(g.id);
      }
    }
    if (fellLow) {
      low.games += 1;
      low[g.result] += 1;
    }
  }
  return {
    gamesWithClocks: withClocks,
    byPhase: { opening: figure(byPhase.opening), middlegame: figure(byPhase.middlegame), endgame: figure(byPhase.endgame) },
    byTimeClass: STAT_TIME_CLASSES.filter((tc) => byClass.has(tc)).map((timeClass) => ({ timeClass, ...figure(byClass.get(timeClass)!) })),
    lowClock: { moves: clockMoves, movesUnder10Percent: lowMoves, share: clockMoves ? round1((100 * lowMoves) / clockMoves) : null },
    lostOnTime: { games: terminated, lost: lostOnTime },
    scoreWhenLow: { ...low, score: scorePercent(low.win, low.draw, low.games) },
  };
}
