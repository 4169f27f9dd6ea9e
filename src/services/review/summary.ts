import type { Colour } from '../../../schemas/common.js';
import { CLASSIFICATIONS } from '../../../schemas/common.js';
import type { StoredAnalysis } from '../../../schemas/engine.js';
import { StoredAnalysis as StoredAnalysisSchema } from '../../../schemas/engine.js';
import type { GameReviewSummary } from '../../../schemas/games.js';
import type { z } from 'zod';
import { selectMoments } from '../../chess/moments.js';
import { buildPlies, type PlyContext } from '../../chess/plyAnalysis.js';

/** What summarizeReview needs of an `analyses` row (src/store/schema/reviews.ts). */
export interface AnalysisRecord {
  /** The StoredAnalysis, as the JSON text the row stores or already parsed. */
  payload: string | StoredAnalysis;
  accuracyWhite: number;
  accuracyBlack: number;
}

export function parseStoredAnalysis(payload: string | StoredAnalysis): StoredAnalysis {
  return typeof payload === 'string' ? StoredAnalysisSchema.parse(JSON.parse(payload)) : payload;
}

/** Median depth reached over the analysed (non-terminal) positions. */
export function medianDepth(a: StoredAnalysis): number {
  const depths = a.positions.filter((p) => !p.terminal && p.lines.length).map((p) => p.depth).sort((x, y) => x - y);
  if (!depths.length) return 0;
  return depths[Math.floor((depths.length - 1) / 2)];
}

/**
 * The game-detail `review` block (schemas/games.ts GameReviewSummary) of an analysed game:
 * the row's stored accuracies, median depth, engine, classification counts over the nine keys and
 * the engine's critical moments (default filters) in brief. `ctx` adds clocks and the time control
 * when the caller has them (they only affect time_trouble tags, not the counts or moments).
 */
export function summarizeReview(
  record: AnalysisRecord,
  userColour: Colour,
  ctx: Omit<PlyContext, 'userColour'> = { clocks: null, timeControl: null },
): z.infer<typeof GameReviewSummary> {
  const analysis = parseStoredAnalysis(record.payload);
  const plies = buildPlies(analysis, { ...ctx, userColour, withLines: () => false });
  const counts = Object.fromEntries(CLASSIFICATIONS.map((c) => [c, 0])) as Record<(typeof CLASSIFICATIONS)[number], number>;
  for (const p of plies) counts[p.ply.classification] += 1;
  const { moments } = selectMoments(plies, analysis, { side: 'both', maxMoments: 40 });
  return {
    accuracyWhite: record.accuracyWhite,
    accuracyBlack: record.accuracyBlack,
    accuracyForUser: userColour === 'white' ? record.accuracyWhite : record.accuracyBlack,
    depth: medianDepth(analysis),
    engineVersion: `${analysis.engine.name} ${analysis.engine.version}`,
    analysedAt: analysis.analysedAt,
    classificationCounts: counts,
    criticalMoments: moments.map((m) => ({
      ply: m.ply,
      move: m.playedMove.san,
      type: m.type ?? 'derived',
      evalSwing: m.evalSwingCentipawns / 100,
      description: m.summary,
    })),
  };
}
