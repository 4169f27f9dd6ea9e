import { classify, isSacrifice } from './classification.js';
import type { Judgment } from './judgments.js';
import { withOwner, type PlyOwner } from './ownerPly.js';
import { detectConcepts } from './concepts.js';
import type { StoredAnalysis } from './engineOutput.js';
import { flip, fromEngineScore, moveLoss, positionEval, winPercent, type Evaluation } from './evaluation.js';
import { isBookPosition } from './openings.js';
import { gamePhases } from './phase.js';
import { boardAt, moveRef, playUci, replayLine, uciOf, viewBoard } from './replay.js';
import { analysisJudgments } from './reviewAccuracy.js';
import type { Colour, ConceptTag, Ply, PlyJudgment } from './types.js';

const JUDGMENT_NAME: Record<Judgment, PlyJudgment> = { Inaccuracy: 'inaccuracy', Mistake: 'mistake', Blunder: 'blunder' };

export interface PlyContext extends PlyOwner {
  /**
   * Which plies get their principal variation and alternatives replayed into SAN (default: all).
   * Replaying lines is most of the cost of a game, so a caller that needs only the classes (the
   * engine bench's labels) passes a filter; plies left out carry empty lines. Classifications and
   * concepts never depend on it.
   */
  withLines?: (ply: number) => boolean;
}

/** A ply plus the figures the derived views need and the response does not carry. */
export interface AnalysedPly {
  ply: Ply;
  winPercentBefore: number | null;
  winPercentAfter: number | null;
  /** Win-probability points the mover gave away (0 when unknown). */
  winPercentLoss: number;
  /** lichess's judgment of the move on the review's evaluations (src/chess/judgments.ts); null when not judged. */
  judgment: Judgment | null;
  swingCentipawns: number;
  /** The engine's best line after the move (opponent to move), UCI. */
  replyLine: string[];
}

function uciFirst(analysis: StoredAnalysis, index: number): string | null {
  return analysis.positions[index]?.lines[0]?.pv[0] ?? null;
}

/** Builds every ply of a stored analysis, deterministically (spec "Ply object" and rules 1-5). */
export function buildPlies(analysis: StoredAnalysis, ctx: PlyContext): AnalysedPly[] {
  const n = analysis.movesUci.length;
  const fens: string[] = [];
  // Replay the played moves ourselves; stored FENs are the fallback when a move does not replay.
  let board = boardAt(analysis.startFen);
  const replayed = analysis.movesUci.map((uci, i) => {
    const fenBefore = board?.fen() ?? analysis.positions[i]?.fen ?? '';
    fens.push(fenBefore);
    const mv = board ? playUci(board, uci) : null;
    const bestUci = uciFirst(analysis, i);
    const best = bestUci ? moveRef(fenBefore, bestUci) : null;
    if (mv) {
      const played = { san: mv.san, uci: uciOf(mv) };
      return { move: played, legal: true, detail: mv, fenBefore, fenAfter: mv.after, best, isBest: !!best?.legal && best.move.uci === played.uci };
    }
    const fenAfter = analysis.positions[i + 1]?.fen ?? '';
    board = boardAt(fenAfter);
    return { move: { san: uci, uci }, legal: false, detail: null, fenBefore, fenAfter, best, isBest: !!best?.legal && best.move.uci === uci };
  });
  // A source's own review carries its published judgments; an engine review is judged by lichess's rules.
  const judgments = analysis.source?.judgments ?? analysisJudgments(analysis, (i) => replayed[i].isBest);
  const phases = gamePhases(fens);
  const out: AnalysedPly[] = [];
  let stillBook = true;
  for (let i = 0; i < n; i += 1) {
    const ply = i + 1;
    const { move: playedMove, legal, detail, fenBefore, fenAfter, best, isBest: isBestMove } = replayed[i];
    const white = fenBefore.split(' ')[1] !== 'b';
    const colour: Colour = white ? 'white' : 'black';
    const moveNumber = Number(fenBefore.split(' ')[5]) || Math.ceil(ply / 2);
    const posBefore = analysis.positions[i];
    const posAfter = analysis.positions[i + 1];
    const evalBefore = positionEval(posBefore);
    const evalAfter = positionEval(posAfter);
    const withLines = ctx.withLines ? ctx.withLines(ply) : true;
    const pv = withLines && posBefore?.lines[0] ? replayLine(fenBefore, posBefore.lines[0].pv) : { san: [], uci: [], truncated: false };
    const alternatives = (withLines ? (posBefore?.lines ?? []) : []).slice(1).flatMap((l) => {
      const line = replayLine(fenBefore, l.pv);
      if (!line.uci.length) return [];
      return [{ move: { san: line.san[0], uci: line.uci[0] }, eval: fromEngineScore(l.score), line: line.san, lineUci: line.uci }];
    });
    // perft(1) counts legal moves without building SAN for each.
    const boardBefore = viewBoard(fenBefore);
    const legalCount = boardBefore?.perft(1) ?? 0;
    const forcedMove = legalCount === 1;
    const previous = replayed[i - 1]?.detail;
    const lines = posBefore?.lines ?? [];
    const onlyMoveMargin =
      lines.length >= 2 ? Math.round((winPercent(fromEngineScore(lines[0].score)) - winPercent(fromEngineScore(lines[1].score))) * 10) / 10 : 0;

    const loss = evalBefore && evalAfter ? moveLoss(evalBefore, evalAfter, isBestMove) : null;
    const winBefore = evalBefore ? winPercent(evalBefore) : null;
    const winAfter = evalAfter ? winPercent(flip(evalAfter)) : null;
    const prevPrevEval = i >= 1 ? positionEval(analysis.positions[i - 1]) : null;
    stillBook = stillBook && legal && isBookPosition(fenAfter);
    const judgment = judgments[i] ?? null;
    const classification = classify({
      book: stillBook,
      isBest: isBestMove,
      judgment,
      previousJudgment: judgments[i - 1] ?? null,
      rawLoss: loss ? loss.evalBeforeMover.value - loss.evalAfterMover.value : null,
      winPercentBefore: winBefore ?? 50,
      winPercentAfter: winAfter ?? winBefore ?? 50,
      // The position before the opponent's move is in the opponent's frame: flip it to the mover's.
      moverWinPercentBeforePrevious: prevPrevEval ? winPercent(flip(prevPrevEval)) : null,
      onlyMoveMargin,
      deeperSearched: posBefore?.deeper === true,
      forcedMove,
      kingMoveOutOfCheck: !!detail && detail.piece === 'k' && !!boardBefore?.inCheck(),
      recapture: !!detail?.captured && !!previous?.captured && previous.to === detail.to,
      sacrifice: !!detail && legal && isSacrifice(viewBoard(fenAfter)!, detail),
    });
    const replyLine = posAfter?.lines[0]?.pv ?? [];
    const concepts: ConceptTag[] = detectConcepts({
      fenBefore,
      played: detail,
      classification,
      bestLine: posBefore?.lines[0]?.pv ?? [],
      replyLine,
      evalBeforeMover: evalBefore,
      evalAfter,
      phase: phases[i],
      moveNumber,
      // The owner's clocks are laid on by withOwner below, so the engine-only tags never depend on them.
      clockSecondsBefore: null,
      baseSeconds: null,
      incrementSeconds: null,
    });
    const neutral: Ply = {
      ply,
      moveNumber,
      colour,
      isUserMove: false,
      fenBefore,
      fenAfter,
      playedMove,
      playedMoveLegal: legal,
      bestMove: best?.legal ? best.move : null,
      isBestMove,
      alternatives,
      evalBefore,
      evalAfter,
      evalBeforeMover: loss?.evalBeforeMover ?? evalBefore,
      evalAfterMover: loss?.evalAfterMover ?? (evalAfter ? flip(evalAfter) : null),
      centipawnLoss: loss?.centipawnLoss ?? 0,
      capApplied: loss?.capApplied ?? false,
      lossReconciles: loss?.lossReconciles ?? false,
      classification,
      // classify() never judges the engine's first choice; the field says the same.
      judgment: judgment && !isBestMove ? JUDGMENT_NAME[judgment] : null,
      principalVariation: pv.san,
      principalVariationUci: pv.uci,
      principalVariationTruncated: pv.truncated,
      onlyMoveMargin,
      forcedMove,
      clockSecondsBefore: null,
      clockSecondsAfter: null,
      timeSpentSeconds: null,
      phase: phases[i],
      concepts,
      humanDifficulty: null,
    };
    out.push({
      ply: withOwner(neutral, ctx),
      winPercentBefore: winBefore,
      winPercentAfter: winAfter,
      winPercentLoss: winBefore !== null && winAfter !== null ? winBefore - winAfter : 0,
      judgment,
      swingCentipawns: loss?.swingCentipawns ?? 0,
      replyLine,
    });
  }
  return out;
}

export type { Evaluation };
