import type { z } from 'zod';
import type { CriticalMomentBrief } from '../../../schemas/games.js';
import type { StoredAnalysis } from '../../chess/engineOutput.js';
import { moveAccuracy } from '../../chess/accuracy.js';
import { onLichessScale } from '../../chess/calibration.js';
import { capCp, flip } from '../../chess/evaluation.js';
import { rankMoments } from '../../chess/moments.js';
import { buildPlies, type AnalysedPly } from '../../chess/plyAnalysis.js';
import { analysisAccuracy } from '../../chess/reviewAccuracy.js';
import { NO_OWNER } from '../../chess/ownerPly.js';
import { buildView, type ReviewView } from './view.js';
import { CLASSIFICATIONS, type Classification, type Colour, type ConceptId, type Phase, type PlyJudgment } from '../../chess/types.js';

/**
 * Bump when a rule that shapes a derivation changes (classification, moments, accuracy, depth), or a field is added
 * (4: the per-ply lichess judgment beside the class; 5: `great` only on a position the deeper look searched;
 * 6: centipawns restated on lichess's scale, src/chess/calibration.ts; 7: a source's review shows the source's
 * published accuracy):
 * stored derivations of an older version are recomputed from the stored engine output at start
 * and on read (src/services/review/records.ts). Deterministic: the same payload gives the same figures.
 */
export const DERIVATION_VERSION = 7;

/** One ply of a derivation: everything about it that follows from the engine output alone. */
export interface DerivedPly {
  colour: Colour;
  classification: Classification;
  /** lichess's judgment beside the class (Ply.judgment): a miss keeps its severity. */
  judgment: PlyJudgment | null;
  phase: Phase | null;
  concepts: ConceptId[];
  /**
   * The mover's accuracy for this move, lichess's moveAccuracy of the mover's win% before and after
   * (lila AccuracyPercent.scala, src/chess/accuracy.ts), two decimals; null when either position has no evaluation.
   */
  accuracy: number | null;
  /**
   * The evaluation of the position after the ply, White's point of view, in centipawns clamped to
   * ±500 (src/chess/evaluation.ts CAP_CENTIPAWNS: a mate counts as ±500); null when not analysed.
   */
  evalAfterCp: number | null;
}

/** Everything a review's readers need that does not depend on who owns the game. */
export interface ReviewDerivation {
  version: number;
  /** lichess's accuracy over the review's own evaluations, one decimal; a source's review: the source's published figure (shownAccuracy). */
  accuracyWhite: number;
  accuracyBlack: number;
  depth: number;
  classificationCounts: Record<Classification, number>;
  /** The engine's critical moments at the default filters, in brief (get_game). */
  criticalMoments: Array<z.infer<typeof CriticalMomentBrief>>;
  /**
   * Per ply (index 0 = ply 1): who moved, its class, phase, concept ids, the mover's accuracy and the
   * evaluation after it (DerivedPly). time_trouble is never
   * among them (it depends on the owner's clocks, not on the engine output): readers add it.
   */
  plies: DerivedPly[];
}

/**
 * The one median-depth definition: the lower median of the depths reached over the searched
 * positions (terminal positions and positions without a line are not searched). Robust to a few
 * shallow mate-found searches and deep endgame ones.
 */
export function medianDepth(a: StoredAnalysis): number {
  const depths = a.positions.filter((p) => !p.terminal && p.lines.length).map((p) => p.depth).sort((x, y) => x - y);
  if (!depths.length) return 0;
  return depths[Math.floor((depths.length - 1) / 2)];
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The accuracy a review shows for a side: a source's review shows the source's published figure (issue 37:
 * lichess's `players.*.analysis.accuracy`, a whole number), and an import stored before that figure was kept shows
 * lichess's method rounded to a whole number as lichess rounds it (80 of 80 players of
 * test/fixtures/sources/lichess-analysed agree); our own reviews show one decimal.
 */
function shownAccuracy(analysis: StoredAnalysis, side: Colour, computed: number): number {
  if (!analysis.source) return round1(computed);
  return analysis.source.accuracy?.[side] ?? Math.round(computed);
}

/** The stored evaluation after a ply is in the side-to-move frame (the opponent of the mover): restate it for White. */
function whiteEvalAfterCp(p: AnalysedPly): number | null {
  const e = p.ply.evalAfter;
  if (!e) return null;
  const white = p.ply.colour === 'white' ? flip(e) : e;
  return capCp(white.value) || 0;
}

/**
 * Derives a review once, from its stored engine output alone: the summary every reader takes, and
 * the per-ply view the analysis and moments tools page through. Clocks and the owner's colour are
 * left out on purpose: they change only time_trouble tags, clock fields and isUserMove, never the
 * classes, moments or accuracies stored here (readers lay them on, src/chess/ownerPly.ts).
 */
export function deriveAll(stored: StoredAnalysis): { derivation: ReviewDerivation; view: ReviewView } {
  // Every rule reads the engine's centipawns on lichess's scale; the stored output stays as the engine gave it.
  const analysis = onLichessScale(stored);
  const plies = buildPlies(analysis, NO_OWNER);
  const view = buildView(analysis, plies);
  return { derivation: summarise(analysis, view), view };
}

/** The summary alone (tests and tools that need no view). */
export function deriveReview(analysis: StoredAnalysis): ReviewDerivation {
  return deriveAll(analysis).derivation;
}

function summarise(analysis: StoredAnalysis, view: ReviewView): ReviewDerivation {
  const plies = view.plies;
  const counts = Object.fromEntries(CLASSIFICATIONS.map((c) => [c, 0])) as Record<Classification, number>;
  for (const p of plies) counts[p.ply.classification] += 1;
  // The brief list of get_game: the default filters over both sides, from the moments just built.
  const moments = rankMoments(plies, { side: 'both', maxMoments: 40 }).kept.map((c) => c.p.moment!);
  const acc = analysisAccuracy(analysis);
  return {
    version: DERIVATION_VERSION,
    accuracyWhite: shownAccuracy(analysis, 'white', acc.white),
    accuracyBlack: shownAccuracy(analysis, 'black', acc.black),
    depth: medianDepth(analysis),
    classificationCounts: counts,
    criticalMoments: moments.map((m) => ({
      ply: m.ply,
      move: m.playedMove.san,
      type: m.type ?? 'derived',
      evalSwing: m.evalSwingCentipawns / 100,
      description: m.summary,
    })),
    plies: plies.map((p) => ({
      colour: p.ply.colour,
      classification: p.ply.classification,
      judgment: p.ply.judgment,
      phase: p.ply.phase,
      concepts: [...new Set(p.ply.concepts.map((c) => c.id))],
      accuracy: p.winPercentBefore !== null && p.winPercentAfter !== null ? round2(moveAccuracy(p.winPercentBefore, p.winPercentAfter)) : null,
      evalAfterCp: whiteEvalAfterCp(p),
    })),
  };
}
