import { z } from 'zod';
import type { EngineLine, StoredAnalysis, StoredPosition } from '../../chess/engineOutput.js';
import { JUDGMENTS, LICHESS_INITIAL_CP, type Judgment } from '../../chess/judgments.js';

const isJudgment = (name: string): name is Judgment => (JUDGMENTS as readonly string[]).includes(name);
import { replaySan } from '../../chess/pgn.js';
import { gamePositions, sideToMove } from '../../chess/positions.js';

/** One entry of a lichess export's `analysis` (GET /api/games/user with evals=true): the position after a ply, White's view. */
export interface LichessAnalysisEntry {
  eval?: number;
  mate?: number;
  /** The engine's move instead of the game move (UCI); lichess sends it only on a judged ply. */
  best?: string;
  /** The engine's line from the position before the ply, SAN, space-separated, starting with `best`. */
  variation?: string;
  /** lichess's judgment name: one of JUDGMENTS, or a name lichess added since (kept as published, read as unknown). */
  judgment?: { name: string };
}

/**
 * One entry as a review needs it: an evaluation (centipawns or mate, whole numbers) always. lichess evaluates every
 * ply it analysed (a final checkmate is left out of the array, not sent empty), so an entry without an evaluation, a
 * null entry or a string where a number belongs means we cannot show lichess's review as lichess made it: the game is
 * then imported review-less and the engine can review it (issue 37, items 5 and 6). A judgment name we do not know (one
 * lichess adds later) is no such fault: the review is imported, that ply's judgment read as unknown (not one of the
 * three flags) and its name kept as published (`source.unknownJudgments`). The export's other fields never depend on it.
 */
const AnalysisEntry = z
  .object({
    eval: z.number().int().optional(),
    mate: z.number().int().optional(),
    best: z.string().optional(),
    variation: z.string().optional(),
    judgment: z.object({ name: z.string().min(1).max(40) }).optional(),
  })
  .refine((e) => e.eval !== undefined || e.mate !== undefined);
const Analysis = z.array(AnalysisEntry).min(1);

/** The export's `analysis` as entries a review can be built from, or null when it is absent, empty or any entry is not usable (AnalysisEntry). */
export function usableAnalysis(raw: unknown): LichessAnalysisEntry[] | null {
  const parsed = Analysis.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** How a lichess review names what made it (the analyses table's engine column and provenance.engineVersion). */
export const LICHESS_ANALYSIS_ENGINE = { name: 'lichess', version: 'server analysis' } as const;

/**
 * lichess's own review of a game, from its export's `analysis`, as a stored review that no engine of ours made:
 * - position 0 carries lichess's `Info.start`, 15 cp (scalachess `Eval.Cp.initial`), the evaluation lichess itself
 *   judges and scores the first move from; position N carries entry N−1, restated for the side to move;
 * - a position's one line starts with lichess's best move from it when lichess gave one (the next ply's `best`,
 *   then its `variation`), else has no moves: lichess sends no best move for a ply it did not judge;
 * - a final checkmate is terminal and unevaluated, as lichess leaves it (one entry fewer than plies);
 * - `source.judgments` are lichess's own judgments, as published.
 * Null when the analysis does not cover the moves (a partial or mismatched array): such a game is left to the engine.
 * Depth and nodes are 0: lichess publishes neither.
 */
export function lichessReview(
  gameId: string,
  startFen: string,
  movesUci: readonly string[],
  analysis: readonly LichessAnalysisEntry[],
  analysedAt: string,
  /** Each side's accuracy as lichess published it (`players.*.analysis.accuracy`), shown in place of a recomputation. */
  accuracy: { white: number | null; black: number | null } = { white: null, black: null },
): StoredAnalysis | null {
  let positions;
  try {
    positions = gamePositions(startFen, movesUci);
  } catch {
    return null;
  }
  const n = movesUci.length;
  const mated = positions[n].terminal === 'checkmate';
  if (n === 0 || analysis.length !== (mated ? n - 1 : n)) return null;
  const whiteView = [{ eval: LICHESS_INITIAL_CP } as LichessAnalysisEntry, ...analysis];
  const unknownJudgments: Record<string, string> = {};
  const judgments = movesUci.map((_, i): Judgment | null => {
    const name = analysis[i]?.judgment?.name;
    if (name === undefined) return null;
    if (isJudgment(name)) return name;
    unknownJudgments[String(i)] = name;
    return null;
  });
  const stored: StoredPosition[] = positions.map((p, i) => {
    const e = whiteView[i];
    const sign = sideToMove(p.fen) === 'white' ? 1 : -1;
    const score = !e || p.terminal === 'checkmate' ? null : typeof e.eval === 'number' ? { cp: e.eval * sign, mate: null } : typeof e.mate === 'number' ? { cp: null, mate: e.mate * sign } : null;
    const lines: EngineLine[] = score ? [{ multiPv: 1, score, pv: bestLine(p.fen, analysis[i]), depth: 0 }] : [];
    return { index: p.index, fen: p.fen, lines, terminal: p.terminal, depth: 0, nodes: 0 };
  });
  return {
    engine: { ...LICHESS_ANALYSIS_ENGINE },
    source: { name: 'lichess', gameId, judgments, ...(Object.keys(unknownJudgments).length ? { unknownJudgments } : {}), accuracy: { ...accuracy } },
    budget: { nodesPerPosition: 0, multiPv: 1 },
    startFen,
    movesUci: [...movesUci],
    positions: stored,
    analysedAt,
  };
}

/** lichess's line from a position (UCI): its variation replayed, or its best move alone when the variation does not replay. */
function bestLine(fen: string, next: LichessAnalysisEntry | undefined): string[] {
  if (!next?.best) return [];
  const line = next.variation ? replaySan(next.variation.split(' ').filter(Boolean), fen) : null;
  return line && line[0]?.uci === next.best ? line.map((p) => p.uci) : [next.best];
}
