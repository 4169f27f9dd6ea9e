import type { Square } from 'chess.js';
import type { DeeperMargins, StoredPosition } from './engineOutput.js';
import { isDecided, THRESHOLDS } from './classification.js';
import { fromEngineScore, winPercent } from './evaluation.js';
import { WINNING_CHANCE_JUDGMENTS } from './judgments.js';
import { viewBoard } from './replay.js';
import { positionScore } from './reviewAccuracy.js';
import { winningChancesUnclamped } from './winChances.js';

/**
 * The deeper look (issue 25 item 2): which positions of a first-pass review to search again at a larger budget,
 * because a label hangs on them. Pure: the same first-pass output and margins select the same positions, so a
 * review is reproduced from its recorded budget (StoredAnalysis.budget.deeper) and the engine's clean-hash search.
 *
 * A position is searched again when
 * - judgment: the ply into or out of it loses winning chances (lichess's scale, −1..1, lila Advice.scala) within
 *   `judgment` of a threshold 0.1 / 0.2 / 0.3: the loss depends on both positions, so both are searched again;
 * - great: the move played from it is the first pass's first choice and its top-two gap (win% points) is at least
 *   the `great` / only-move threshold (src/chess/classification.ts THRESHOLDS.great) less `great`, in a position not
 *   decided, and not a recapture on the square the opponent just captured on (never great): `great` is only given
 *   on a deeper search (4b), so every move that could be one is checked there;
 * - mate: its evaluation is a centipawn score of at least `mateCp` either way: a mate may hide behind it, and a
 *   found mate changes lichess's judgment bands (mate created / mate lost);
 * - moments: a ply judged Blunder on the first pass is an engine critical moment (src/chess/moments.ts): the
 *   positions before and after it are searched again, so the moment, its best move and line stand on the deeper search.
 * Mate scores on both sides of a ply settle its judgment by lichess's mate bands; those plies are left alone.
 */
export type { DeeperMargins };

/** Chosen by `npm run bench -- fidelity` on the shared lichess-analysed games (docs/engine.md). */
export const DEEPER_MARGINS: DeeperMargins = { judgment: 0.015, great: 2, mateCp: 0, moments: false };

const BLUNDER_DROP = WINNING_CHANCE_JUDGMENTS.find(([, j]) => j === 'Blunder')![0];
const firstScore = (p: StoredPosition | undefined) => (p ? positionScore(p) : null);

/** The indices of `positions` (game order, side-to-move scores; `movesUci[i]` played from position i) to search again, ascending. */
export function unsettledPositions(positions: readonly StoredPosition[], movesUci: readonly string[], m: DeeperMargins): number[] {
  const pick = new Set<number>();
  const searchable = (i: number) => positions[i] && !positions[i].terminal;
  for (let i = 0; i < positions.length; i += 1) {
    const p = positions[i];
    if (!searchable(i)) continue;
    const s = firstScore(p);
    if (s && s.mate === null && m.mateCp > 0 && Math.abs(s.cp ?? 0) >= m.mateCp) pick.add(i);
    const lines = p.lines;
    if (lines.length >= 2 && lines[0].pv[0] !== undefined && lines[0].pv[0] === movesUci[i] && !isRecapture(positions, movesUci, i)) {
      // The gap as plyAnalysis measures onlyMoveMargin.
      const top = winPercent(fromEngineScore(lines[0].score));
      const gap = top - winPercent(fromEngineScore(lines[1].score));
      if (gap >= THRESHOLDS.great - m.great && !isDecided(top)) pick.add(i);
    }
    // The ply from position i to i + 1: mover's drop in winning chances on the unclamped centipawns.
    const before = s;
    const after = firstScore(positions[i + 1]);
    if (!before || !after || before.cp === null || after.cp === null || before.mate !== null || after.mate !== null) continue;
    const drop = winningChancesUnclamped(before.cp) - winningChancesUnclamped(-after.cp);
    const near = WINNING_CHANCE_JUDGMENTS.some(([t]) => Math.abs(drop - t) <= m.judgment);
    const blunder = m.moments && drop >= BLUNDER_DROP;
    if (near || blunder) {
      pick.add(i);
      if (searchable(i + 1)) pick.add(i + 1);
    }
  }
  return [...pick].sort((a, b) => a - b);
}

/** Move i captures on the square move i − 1 captured on (classification.ts: a recapture is never great). */
function isRecapture(positions: readonly StoredPosition[], movesUci: readonly string[], i: number): boolean {
  if (i === 0) return false;
  const to = movesUci[i].slice(2, 4);
  // Move i − 1 captured on `to` when a piece stood there before it.
  return movesUci[i - 1].slice(2, 4) === to && !!viewBoard(positions[i - 1]?.fen ?? '')?.get(to as Square);
}
