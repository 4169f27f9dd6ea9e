import { z } from 'zod';
import { STOCKFISH_MAX_PLY, STOCKFISH_VALUE_MATE } from '../../../schemas/fishnet.js';
import type { EngineLine, StoredAnalysis, StoredPosition } from '../../chess/engineOutput.js';
import { JUDGMENTS, LICHESS_INITIAL_CP, type Judgment } from '../../chess/judgments.js';
import { replaySan } from '../../chess/pgn.js';
import { gamePositions, sideToMove } from '../../chess/positions.js';
import { moveRef } from '../../chess/replay.js';

const isJudgment = (name: string): name is Judgment => (JUDGMENTS as readonly string[]).includes(name);

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
/**
 * The bounds of what lichess's analysis can hold (issue 44 item 8): it is Stockfish's (fishnet's) output, so a
 * centipawn evaluation is below Stockfish's VALUE_MATE (32000) in magnitude, a mate is 1 to MAX_PLY (246) moves
 * away (fishnet's `Score::is_plausible`; a checkmate on the board is terminal and not sent), and `best` is one
 * UCI move (its legality in its position is checked by lichessReview). An entry outside them is not lichess's
 * analysis as lichess made it, and the game is imported review-less like any other unusable analysis.
 */
const UCI_MOVE = /^[a-h][1-8][a-h][1-8][qrbn]?$/;
/** A variation is Stockfish's PV in SAN: fishnet bounds a PV at MAX_PLY moves; 8 characters a move is ample. */
export const VARIATION_MAX_CHARS = STOCKFISH_MAX_PLY * 8;
const AnalysisEntry = z
  .object({
    eval: z
      .number()
      .int()
      .gt(-STOCKFISH_VALUE_MATE)
      .lt(STOCKFISH_VALUE_MATE)
      .optional(),
    mate: z
      .number()
      .int()
      .min(-STOCKFISH_MAX_PLY)
      .max(STOCKFISH_MAX_PLY)
      .refine((m) => m !== 0)
      .optional(),
    best: z.string().regex(UCI_MOVE).optional(),
    variation: z.string().max(VARIATION_MAX_CHARS).optional(),
    judgment: z.object({ name: z.string().min(1).max(40) }).optional(),
  })
  .refine((e) => e.eval !== undefined || e.mate !== undefined);
const Analysis = z.array(AnalysisEntry).min(1);

/** The export's `analysis` as entries a review can be built from, or null when it is absent, empty or any entry is not usable (AnalysisEntry). */
export function usableAnalysis(raw: unknown): LichessAnalysisEntry[] | null {
  const parsed = Analysis.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** lichess's accuracy is a percentage (lila `AccuracyPercent`, 0 to 100). */
export const isPublishedAccuracy = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 100;

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
  if ((accuracy.white !== null && !isPublishedAccuracy(accuracy.white)) || (accuracy.black !== null && !isPublishedAccuracy(accuracy.black))) return null;
  // `best` must be a legal move where it was suggested (the position before its ply), in standard UCI or in
  // lichess's own castling form (the king onto its rook, as lila's Uci writes castling): else the whole
  // analysis is not lichess's as lichess made it, and the game is left review-less.
  const bests: Array<string | null> = [];
  for (let i = 0; i < n; i += 1) {
    const best = analysis[i]?.best;
    if (best === undefined) bests.push(null);
    else {
      const legal = legalBest(positions[i].fen, best);
      if (legal === null) return null;
      bests.push(legal);
    }
  }
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
    const lines: EngineLine[] = score ? [{ multiPv: 1, score, pv: bestLine(p.fen, bests[i] ?? null, analysis[i]?.variation), depth: 0 }] : [];
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
function bestLine(fen: string, best: string | null, variation: string | undefined): string[] {
  if (!best) return [];
  const line = variation ? replaySan(variation.split(' ').filter(Boolean), fen) : null;
  return line && line[0]?.uci === best ? line.map((p) => p.uci) : [best];
}

/** King onto its own rook's corner (lila's castling UCI) → the king's two-square move of standard UCI. */
const CASTLING: Record<string, string> = { e1h1: 'e1g1', e1a1: 'e1c1', e8h8: 'e8g8', e8a8: 'e8c8' };

/** `best` as a legal standard-UCI move from `fen`, or null when it is not legal there. */
function legalBest(fen: string, best: string): string | null {
  const direct = moveRef(fen, best);
  if (direct.legal) return direct.move.uci;
  const castle = CASTLING[best];
  if (!castle) return null;
  const castled = moveRef(fen, castle);
  return castled.legal && castled.detail!.piece === 'k' ? castled.move.uci : null;
}
