import type { StoredAnalysis } from './engineOutput.js';
import { fromEngineScore, type Evaluation } from './evaluation.js';
import { PIECE_NAME } from './material.js';
import type { AnalysedPly } from './plyAnalysis.js';
import { boardAt, moveRef, playUci, replayLine } from './replay.js';
import { SEVERITIES, type Moment, type MomentSource, type Ply, type Severity } from './types.js';

export type { Severity };

/**
 * Critical moments.
 * - Engine moments: plies lichess would judge a Blunder on the review's evaluations (src/chess/judgments.ts: a
 *   drop of ≥ 15 win-probability points, or a forced mate allowed from −7.00 or better, or one let go for +7.00 or
 *   less; type = the classification: blunder, or miss when the blunder let a chance go), and brilliancies (type
 *   brilliant, exempt from minSeverity).
 * - Derived moments: with minCentipawnLoss, any other ply conceding at least that many centipawns
 *   (type null, source derived).
 * - Severity from win% lost: critical ≥ 40 or a forced mate allowed or missed, major ≥ 25,
 *   otherwise moderate; brilliancies are moderate.
 * - maxMoments keeps the most severe (severity, then win% lost, then earlier ply) and returns them in ply order.
 */
export const ACCEPTABLE_WITHIN_CP = 25;

export interface MomentFilters {
  side: 'both' | 'user';
  minSeverity?: Severity;
  minCentipawnLoss?: number;
  maxMoments: number;
}

export interface MomentSelection {
  moments: Moment[];
  matching: number;
  matchingBySource: { engine: number; derived: number };
  truncated: boolean;
}

function severityOf(p: AnalysedPly): Severity {
  if (p.ply.classification === 'brilliant') return 'moderate';
  const mateSwing = p.ply.concepts.some((c) => c.id === 'missed_mate' || c.id === 'allowed_mate');
  if (mateSwing || p.winPercentLoss >= 40) return 'critical';
  if (p.winPercentLoss >= 25) return 'major';
  return 'moderate';
}

const side = (c: string) => (c === 'white' ? 'White' : 'Black');

const fmt = (e: Evaluation | null) =>
  !e ? 'unknown' : e.type === 'mate' ? (e.mateIn === 0 ? (e.value > 0 ? 'checkmate given' : 'checkmated') : `${e.value > 0 ? '' : '-'}M${Math.abs(e.mateIn ?? 0)}`) : `${e.pawns >= 0 ? '+' : ''}${e.pawns.toFixed(2)}`;

function moveLabel(p: AnalysedPly): string {
  return `${p.ply.moveNumber}${p.ply.colour === 'white' ? '.' : '...'}${p.ply.playedMove.san}`;
}

function hintsFor(p: AnalysedPly): string[] {
  const hints: string[] = [];
  const mate = p.ply.evalBeforeMover?.type === 'mate' && p.ply.evalBeforeMover.value > 0 ? p.ply.evalBeforeMover.mateIn : null;
  hints.push(
    mate
      ? `There is a forced mate in ${mate}.`
      : `A better move was available: the position was worth ${fmt(p.ply.evalBeforeMover)} for ${side(p.ply.colour)} before this move.`,
  );
  const best = p.ply.bestMove;
  if (!best) return hints;
  const board = boardAt(p.ply.fenBefore);
  const mv = board ? playUci(board, best.uci) : null;
  if (!mv || !board) return hints;
  const kind = board.isCheckmate()
    ? 'It mates at once.'
    : board.inCheck()
      ? 'Look for a check.'
      : mv.captured
        ? 'Look for a capture.'
        : mv.isKingsideCastle() || mv.isQueensideCastle()
          ? 'Think about king safety.'
          : 'The best move is a quiet move: no check and no capture.';
  hints.push(kind);
  hints.push(`The move is made by a ${PIECE_NAME[mv.piece]}.`);
  return hints;
}

/** Builds the moment object of one analysed ply. */
export function momentOf(p: AnalysedPly, source: MomentSource, analysis: StoredAnalysis): Moment {
  const x = p.ply;
  const before = analysis.positions[x.ply - 1];
  const after = analysis.positions[x.ply];
  const continuation = before?.lines[0] ? replayLine(x.fenBefore, before.lines[0].pv) : null;
  const refLine = after?.lines[0] ? replayLine(x.fenAfter, after.lines[0].pv) : null;
  const refutation =
    refLine && after?.lines[0]
      ? {
          line: refLine.san,
          lineUci: refLine.uci,
          truncated: refLine.truncated,
          eval: fromEngineScore(after.lines[0].score),
          evalFrame: 'opponent' as const,
          note: `The opponent's best line after ${x.playedMove.san}; eval is from the opponent's point of view (${fmt(fromEngineScore(after.lines[0].score))} for them).`,
        }
      : null;
  const acceptable: Moment['acceptableAnswers'] = [];
  if (x.bestMove && before?.lines[0]) {
    acceptable.push({ ...x.bestMove, note: "the engine's first choice" });
    const top = fromEngineScore(before.lines[0].score);
    for (const line of before.lines.slice(1)) {
      const alt = fromEngineScore(line.score);
      const gap = top.value - alt.value;
      const sameKind = top.type === alt.type && (top.type === 'cp' || top.mateIn === alt.mateIn);
      const ref = line.pv[0] ? moveRef(x.fenBefore, line.pv[0]) : null;
      if (sameKind && gap <= ACCEPTABLE_WITHIN_CP && ref?.legal)
        acceptable.push({ ...ref.move, note: `engine alternative, ${(gap / 100).toFixed(2)} pawns below the first choice` });
    }
  }
  const isBrilliant = x.classification === 'brilliant';
  const engineName = `${analysis.engine.name} ${analysis.engine.version}`;
  const summary = isBrilliant
    ? `${moveLabel(p)} was a sound sacrifice: the engine rates the position ${fmt(x.evalAfterMover)} for ${side(x.colour)} after it.`
    : `${moveLabel(p)} moved the evaluation from ${fmt(x.evalBeforeMover)} to ${fmt(x.evalAfterMover)} for ${side(x.colour)}` +
      ` (${x.centipawnLoss} centipawns lost${x.capApplied ? ', clamped at ±500' : ''}; win chance ${Math.round(p.winPercentBefore ?? 0)}% → ${Math.round(p.winPercentAfter ?? 0)}%).` +
      (x.bestMove && !x.isBestMove ? ` The engine preferred ${x.bestMove.san}.` : '');
  const engineDescription =
    // A source's review (lichess's) publishes no depth.
    `${engineName}${analysis.source ? '' : `, depth ${before?.depth ?? 0}`}: first choice ${x.bestMove?.san ?? 'none'} (${fmt(x.evalBefore)} for the side to move)` +
    (refutation ? `; after ${x.playedMove.san} the best reply is ${refutation.line[0] ?? 'none'} (${fmt(refutation.eval)} for the opponent).` : '.');
  const toMove = x.colour === 'white' ? 'White' : 'Black';
  const trainingQuestion = !x.bestMove
    ? null
    : isBrilliant
      ? `${toMove} to play (move ${x.moveNumber}). Find the sacrifice that keeps ${fmt(x.evalBeforeMover)}.`
      : `${toMove} to play (move ${x.moveNumber}). The game move gave away ${x.centipawnLoss} centipawns: find the move that keeps ${fmt(x.evalBeforeMover)}.`;
  return {
    ply: x.ply,
    moveNumber: x.moveNumber,
    fen: x.fenBefore || null,
    sideToMove: x.colour,
    isUserMove: x.isUserMove,
    type: source === 'engine' ? x.classification : null,
    source,
    severity: severityOf(p),
    classification: x.classification,
    judgment: x.judgment,
    evalSwingCentipawns: p.swingCentipawns,
    centipawnLoss: x.centipawnLoss,
    evalBefore: x.evalBefore,
    evalAfter: x.evalAfter,
    evalBeforeMover: x.evalBeforeMover,
    evalAfterMover: x.evalAfterMover,
    capApplied: x.capApplied,
    lossReconciles: x.lossReconciles,
    playedMoveLegal: x.playedMoveLegal,
    playedMove: { san: x.playedMove.san, uci: x.fenBefore ? x.playedMove.uci : null },
    bestMove: x.bestMove,
    continuation: continuation ? { line: continuation.san, lineUci: continuation.uci, truncated: continuation.truncated } : null,
    refutation,
    summary,
    engineDescription,
    summarySource: 'template',
    hints: isBrilliant ? hintsFor(p).slice(1) : hintsFor(p),
    trainingQuestion,
    acceptableAnswers: acceptable,
    clockSecondsBefore: x.clockSecondsBefore,
    timeSpentSeconds: x.timeSpentSeconds,
    phase: x.phase,
    concepts: x.concepts,
    humanDifficulty: null,
    matchesKnownWeakness: null,
  };
}

/** Whether the engine gate makes this ply a moment on its own. */
export function isEngineMoment(p: AnalysedPly): boolean {
  if (p.ply.classification === 'brilliant') return true;
  return p.judgment === 'Blunder';
}

/** Which plies are moments under the filters, before any moment object is built. */
export interface RankedMoments<P extends AnalysedPly = AnalysedPly> {
  kept: Array<{ p: P; source: MomentSource }>;
  matching: number;
  matchingBySource: { engine: number; derived: number };
  truncated: boolean;
}

export function rankMoments<P extends AnalysedPly>(plies: readonly P[], f: MomentFilters): RankedMoments<P> {
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  const candidates: Array<{ p: P; source: MomentSource; severity: Severity }> = [];
  for (const p of plies) {
    if (f.side === 'user' && !p.ply.isUserMove) continue;
    let source: MomentSource | null = null;
    if (isEngineMoment(p)) source = 'engine';
    else if (f.minCentipawnLoss !== undefined && p.ply.centipawnLoss >= f.minCentipawnLoss) source = 'derived';
    if (!source) continue;
    const severity = severityOf(p);
    const exempt = p.ply.classification === 'brilliant';
    if (f.minSeverity && !exempt && rank(severity) < rank(f.minSeverity)) continue;
    candidates.push({ p, source, severity });
  }
  const kept = [...candidates]
    .sort((a, b) => rank(b.severity) - rank(a.severity) || b.p.winPercentLoss - a.p.winPercentLoss || a.p.ply.ply - b.p.ply.ply)
    .slice(0, f.maxMoments)
    .sort((a, b) => a.p.ply.ply - b.p.ply.ply);
  return {
    kept: kept.map(({ p, source }) => ({ p, source })),
    matching: candidates.length,
    matchingBySource: {
      engine: candidates.filter((c) => c.source === 'engine').length,
      derived: candidates.filter((c) => c.source === 'derived').length,
    },
    truncated: candidates.length > kept.length,
  };
}

export function selectMoments(plies: readonly AnalysedPly[], analysis: StoredAnalysis, f: MomentFilters): MomentSelection {
  const { kept, ...counts } = rankMoments(plies, f);
  return { moments: kept.map((c) => momentOf(c.p, c.source, analysis)), ...counts };
}

/** Whether a ply can ever be a moment (engine gate, or any conceded centipawn for minCentipawnLoss ≥ 1). */
export function canBeMoment(p: AnalysedPly): boolean {
  return isEngineMoment(p) || p.ply.centipawnLoss >= 1;
}

/**
 * A stored owner-neutral moment (momentOf of the owner-neutral ply) as `source`, with the owner's
 * side, clocks and time_trouble tag taken from their ply (src/chess/ownerPly.ts withOwner).
 */
export function ownedMoment(neutral: Moment, source: MomentSource, ownerPly: Ply): Moment {
  return {
    ...neutral,
    type: source === 'engine' ? neutral.classification : null,
    source,
    isUserMove: ownerPly.isUserMove,
    clockSecondsBefore: ownerPly.clockSecondsBefore,
    timeSpentSeconds: ownerPly.timeSpentSeconds,
    concepts: ownerPly.concepts,
  };
}
