import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { reviewEngineLabel } from './engineName.js';
import type { ReviewSource, StoredAnalysis } from '../../chess/engineOutput.js';
import { canBeMoment, momentOf } from '../../chess/moments.js';
import type { AnalysedPly } from '../../chess/plyAnalysis.js';
import type { Moment } from '../../chess/types.js';

/**
 * The per-ply view of a review, derived once with the summary (src/services/review/derive.ts) and
 * stored beside it, so get_game_analysis and get_critical_moments read instead of replaying and
 * classifying every ply per request. Owner-neutral: the owner's side and clocks are laid on by
 * the reader (src/chess/ownerPly.ts), which is why one stored view serves every owner of the moves.
 */
export interface StoredPly extends AnalysedPly {
  /**
   * The ply as a critical moment (momentOf, its lines replayed), stored for every ply that can
   * become one under some filter (src/chess/moments.ts canBeMoment); null otherwise.
   */
  moment: Moment | null;
}

export interface ReviewView {
  plies: StoredPly[];
  /** Whether the engine gave a second line anywhere (MultiPV ≥ 2): the availability flag. */
  alternatives: boolean;
  /** The engine, build, network and budget that searched (src/engine/builds.ts engineLabel). */
  engine: string;
  /** The source whose own review this is (lichess's server analysis), null for an engine review of ours. */
  source: ReviewSource | null;
}

/** Builds the stored view from the owner-neutral plies, every line replayed. */
export function buildView(analysis: StoredAnalysis, plies: readonly AnalysedPly[]): ReviewView {
  return {
    plies: plies.map((p) => ({ ...p, moment: canBeMoment(p) ? momentOf(p, 'engine', analysis) : null })),
    alternatives: analysis.positions.some((p) => p.lines.length >= 2),
    engine: reviewEngineLabel(analysis),
    source: analysis.source?.name ?? null,
  };
}

/*
 * Stored as raw-deflated JSON: a view repeats FENs, SAN lines and evaluation objects ply after
 * ply, so it compresses about tenfold, and inflating it costs far less than deriving it again.
 */
export function encodeView(view: ReviewView): Buffer {
  return deflateRawSync(Buffer.from(JSON.stringify(view)));
}

export function decodeView(bytes: Uint8Array): ReviewView {
  return JSON.parse(inflateRawSync(bytes).toString('utf8')) as ReviewView;
}
