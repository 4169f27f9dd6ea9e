import type { z } from 'zod';
import type { CriticalMomentBrief } from '../../../schemas/games.js';
import type { StoredAnalysis } from '../../chess/engineOutput.js';
import { selectMoments } from '../../chess/moments.js';
import { buildPlies } from '../../chess/plyAnalysis.js';
import { analysisAccuracy } from '../../chess/reviewAccuracy.js';
import { CLASSIFICATIONS, type Classification, type Colour, type ConceptId, type Phase } from '../../chess/types.js';

/**
 * Bump when a rule that shapes a derivation changes (classification, moments, accuracy, depth):
 * stored derivations of an older version are recomputed from the stored engine output at start
 * and on read (src/services/review/records.ts). Deterministic: the same payload gives the same figures.
 */
export const DERIVATION_VERSION = 1;

/** Everything a review's readers need that does not depend on who owns the game. */
export interface ReviewDerivation {
  version: number;
  /** lichess's accuracy over the review's own evaluations, one decimal (as shown everywhere). */
  accuracyWhite: number;
  accuracyBlack: number;
  depth: number;
  classificationCounts: Record<Classification, number>;
  /** The engine's critical moments at the default filters, in brief (get_game). */
  criticalMoments: Array<z.infer<typeof CriticalMomentBrief>>;
  /**
   * Per ply (index 0 = ply 1): who moved, its class, phase and concept ids. time_trouble is never
   * among them (it depends on the owner's clocks, not on the engine output): readers add it.
   */
  plies: Array<{ colour: Colour; classification: Classification; phase: Phase | null; concepts: ConceptId[] }>;
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

/**
 * Derives a review once, from its stored engine output alone. Clocks and the owner's colour are
 * left out on purpose: they change only time_trouble tags and isUserMove, never the classes,
 * moments or accuracies stored here.
 */
export function deriveReview(analysis: StoredAnalysis): ReviewDerivation {
  const plies = buildPlies(analysis, { userColour: null, clocks: null, timeControl: null, withLines: () => false });
  const counts = Object.fromEntries(CLASSIFICATIONS.map((c) => [c, 0])) as Record<Classification, number>;
  for (const p of plies) counts[p.ply.classification] += 1;
  const { moments } = selectMoments(plies, analysis, { side: 'both', maxMoments: 40 });
  const acc = analysisAccuracy(analysis);
  return {
    version: DERIVATION_VERSION,
    accuracyWhite: round1(acc.white),
    accuracyBlack: round1(acc.black),
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
      phase: p.ply.phase,
      concepts: [...new Set(p.ply.concepts.map((c) => c.id))],
    })),
  };
}
