import type { EngineIdentity, EngineLine, StoredAnalysis, StoredPosition } from './engineOutput.js';

/**
 * Centipawns on lichess's scale (issue 25). lichess's judgments and accuracy are functions of its server's
 * evaluations (lila Advice.scala, AccuracyPercent.scala on fishnet's output); the rules in src/chess reproduce them
 * exactly when fed those evaluations. An engine whose centipawns run larger than lichess's on the same positions
 * flags more moves and scores every player lower for that reason alone, so its scores are restated on lichess's
 * scale before any rule reads them: cp × the network's factor, rounded; mate scores as they are.
 *
 * The factor is a measurement, per NNUE network (the network, with the Stockfish release that ships it, sets the
 * centipawn scale): the median of lichess cp ÷ ours over the positions of the shared lichess-analysed games where
 * both evaluations lie between 50 and 1,000 cp on the same side (test/fixtures/lichess-analysed; fitted on the
 * first 20 games at 100,000 nodes, checked on the other 20). `npm run bench -- fidelity` prints the fit again.
 * A network not measured here is read as it comes (factor 1), and so is a source's own review (its evaluations are
 * already lichess's).
 */
export const CP_SCALE_BY_NETWORK: Readonly<Record<string, number>> = {
  // Stockfish 19 WASM, full build (npm `stockfish`): 0.836 on games 1–20 (823 positions), 0.830 on games 21–40.
  'nn-1a298aa575a0.nnue': 0.84,
};

/** The factor that restates this engine's centipawns on lichess's scale (1: as they come). */
export function cpScaleOf(engine: EngineIdentity | undefined): number {
  const net = engine?.network;
  return (net && CP_SCALE_BY_NETWORK[net]) || 1;
}

function scaleLines(lines: EngineLine[], k: number): EngineLine[] {
  return lines.map((l) => (l.score.cp === null ? l : { ...l, score: { cp: Math.round(l.score.cp * k), mate: l.score.mate } }));
}

/** Positions with their centipawns restated by `k` (the stored engine output itself is never changed). */
export function scalePositions(positions: readonly StoredPosition[], k: number): StoredPosition[] {
  return k === 1 ? [...positions] : positions.map((p) => (p.lines.length ? { ...p, lines: scaleLines(p.lines, k) } : p));
}

/** The factor a review is read with: its engine's; 1 for a source's own review (already lichess's evaluations). */
export function reviewCpScale(a: StoredAnalysis): number {
  return a.source ? 1 : cpScaleOf(a.engine);
}

/** A review as the rules read it: its engine's centipawns on lichess's scale; a source's own review as it is. */
export function onLichessScale(a: StoredAnalysis): StoredAnalysis {
  const k = reviewCpScale(a);
  return k === 1 ? a : { ...a, positions: scalePositions(a.positions, k) };
}
