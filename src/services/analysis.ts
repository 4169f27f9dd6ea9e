import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { AnalysisInput, type AnalysisResponse } from '../../schemas/analysis.js';
import type { StoredAnalysis } from '../../schemas/engine.js';
import { CONCEPT_NOTES, DETECTORS } from '../chess/concepts.js';
import { parseTimeControl, type TimeControlInfo } from '../chess/clocks.js';
import { CONVENTION_NOTES } from '../chess/evaluation.js';
import { buildPlies, type AnalysedPly } from '../chess/plyAnalysis.js';
import { medianDepth, parseStoredAnalysis } from './review/summary.js';
import type { PersonalCtx } from '../context.js';
import { analyses } from '../store/schema/index.js';

export type { GameRow };
export type AnalysisRow = typeof analyses.$inferSelect;

export const MAX_PLY_LIMIT = 120;

import { ownedGame } from './games.js';
import type { GameRow } from './gameWriter.js';

/** The caller's game, or the one 404 an unknown and a foreign id share. */
export { ownedGame };

export function analysisRow(ctx: PersonalCtx, movesKey: string | null): AnalysisRow | null {
  if (!movesKey) return null;
  return ctx.store.db.select().from(analyses).where(eq(analyses.movesKey, movesKey)).get() ?? null;
}

export function parseClocks(raw: string | null): Array<number | null> | null {
  if (!raw) return null;
  try {
    const v: unknown = JSON.parse(raw);
    if (!Array.isArray(v)) return null;
    const clocks = v.map((c) => (typeof c === 'number' && Number.isFinite(c) ? c : null));
    return clocks.some((c) => c !== null) ? clocks : null;
  } catch {
    return null;
  }
}

/** An owned game with its analysis, fully derived. */
export interface AnalysedGame {
  game: GameRow;
  row: AnalysisRow;
  stored: StoredAnalysis;
  plies: AnalysedPly[];
  clocks: Array<number | null> | null;
  timeControl: TimeControlInfo | null;
}

/** `withLines` limits which plies get their lines replayed (see PlyContext.withLines). */
export function analyseGame(game: GameRow, row: AnalysisRow, withLines?: (ply: number) => boolean): AnalysedGame {
  const stored = parseStoredAnalysis(row.payload);
  const clocks = parseClocks(game.clocks);
  const timeControl = parseTimeControl(game.timeControl);
  const plies = buildPlies(stored, { userColour: game.colour, clocks, timeControl, withLines });
  return { game, row, stored, plies, clocks, timeControl };
}

/** The next step an unreviewed game's response carries. */
export function nextStepFor(game: GameRow): string {
  return game.movesKey
    ? 'This game has not been reviewed. Call request_game_review with this id (pass wait up to 45 to collect the result), then call this tool again.'
    : 'This game has no stored moves. Attach its PGN with attach_pgn, then call request_game_review, then call this tool again.';
}

export function provenance(a: AnalysedGame) {
  return {
    source: 'engine review by this service (stored engine output, recomputed deterministically)',
    engineVersion: `${a.stored.engine.name} ${a.stored.engine.version}`,
    depth: medianDepth(a.stored),
    analysedAt: a.row.analysedAt,
    generatedBy: 'deterministic' as const,
  };
}

export function conventions() {
  return {
    evalFrame: 'side-to-move' as const,
    moverFrame: 'mover' as const,
    capCentipawns: 500 as const,
    notes: { ...CONVENTION_NOTES },
  };
}

export function availability(a: AnalysedGame) {
  const clocks = a.clocks !== null;
  return {
    clocks,
    timeSpent: clocks && a.timeControl?.baseSeconds != null,
    alternatives: a.stored.positions.some((p) => p.lines.length >= 2),
    concepts: true,
    humanDifficulty: false,
    threats: false,
    conceptDetectors: { detectors: [...DETECTORS], version: 'v1' as const },
    notes: { concepts: CONCEPT_NOTES },
  };
}

/** get_game_analysis: owner check, analysed:false with the next step, or a page of plies. */
export function getGameAnalysis(ctx: PersonalCtx, input: z.output<typeof AnalysisInput>): AnalysisResponse {
  const game = ownedGame(ctx, input.id);
  const row = analysisRow(ctx, game.movesKey);
  if (!row) return { analysed: false, gameId: game.id, nextStep: nextStepFor(game) };
  const stored = parseStoredAnalysis(row.payload);
  const total = stored.movesUci.length;
  const fromPly = input.fromPly >= 1 && input.fromPly <= total ? input.fromPly : 1;
  const limit = Math.min(MAX_PLY_LIMIT, Math.max(1, input.limit));
  const isUserPly = (ply: number) => (ply % 2 === 1) === (stored.startFen.split(' ')[1] !== 'b') === (game.colour === 'white');
  const wanted = (ply: number) => ply >= fromPly && (input.side === 'both' || isUserPly(ply));
  // Only the page's plies get their lines replayed; every ply is still classified (miss needs the previous ply).
  let inPage = 0;
  const pagePlies = new Set<number>();
  for (let ply = 1; ply <= total && inPage < limit; ply += 1) if (wanted(ply)) (pagePlies.add(ply), (inPage += 1));
  const a = analyseGame(game, row, (ply) => pagePlies.has(ply));
  const matchingPlies = a.plies.filter((p) => wanted(p.ply.ply));
  const page = matchingPlies.slice(0, limit);
  const more = matchingPlies.length > page.length;
  return {
    analysed: true,
    gameId: game.id,
    provenance: provenance(a),
    conventions: conventions(),
    accuracyWhite: row.accuracyWhite,
    accuracyBlack: row.accuracyBlack,
    userColour: game.colour,
    timeControl: a.timeControl,
    plyCount: total,
    availability: availability(a),
    pagination: {
      fromPly,
      limit,
      side: input.side,
      returned: page.length,
      matching: matchingPlies.length,
      totalPlies: total,
      nextFromPly: more ? matchingPlies[page.length].ply.ply : null,
    },
    plies: page.map((p) => p.ply),
  };
}
