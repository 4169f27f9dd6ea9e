import { z } from 'zod';
import { describeIssue, getJson, SourceFormatError } from '../types.js';
import { lichessHeaders, type LichessOptions } from './client.js';

/**
 * lichess's opening explorer (explorer.lichess.org; lichess-org/api doc/specs/tags/openingexplorer/*.yaml):
 * `/lichess` (games played on lichess, by rating group and speed) and `/masters` (over-the-board games of
 * 2200+ players). Since 2026-03-03 both require a bearer token (a personal token with no scopes is enough);
 * without one, or with a refused one, the answer is 401.
 */

/** lichess's rating groups: each runs from its value to the next (0 = under 1000, 2500 = 2500 and up). */
export const EXPLORER_RATINGS = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500] as const;
export type ExplorerRating = (typeof EXPLORER_RATINGS)[number];

/** The explorer's speeds (the `speeds` parameter). */
export const EXPLORER_SPEEDS = ['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export type ExplorerSpeed = (typeof EXPLORER_SPEEDS)[number];

const count = z.number().int().nonnegative();

/** One move from the position: games won by White, drawn, won by Black after it. Fields we do not read are let through. */
const ExplorerMove = z.object({
  uci: z.string().regex(/^[a-h][1-8][a-h][1-8][qrbn]?$/),
  san: z.string().min(1),
  averageRating: z.number().nullable().optional(),
  white: count,
  draws: count,
  black: count,
});

export const ExplorerAnswer = z.object({
  white: count,
  draws: count,
  black: count,
  moves: z.array(ExplorerMove),
  opening: z.object({ eco: z.string(), name: z.string() }).nullable().optional(),
});
/** What is kept of an answer: the totals, the moves and the opening's name (not the sample games). */
export type ExplorerAnswer = z.infer<typeof ExplorerAnswer>;

export interface LichessQuery {
  /** The position (FEN); the explorer matches positions, so transpositions meet. */
  fen: string;
  ratings: readonly ExplorerRating[];
  speeds: readonly ExplorerSpeed[];
}

/** Keeps only the fields of ExplorerAnswer, so what is cached is exactly what is read. */
function parse(raw: unknown, what: string): ExplorerAnswer {
  const parsed = ExplorerAnswer.safeParse(raw);
  if (!parsed.success) throw new SourceFormatError(describeIssue(what, parsed.error));
  const a = parsed.data;
  return {
    white: a.white,
    draws: a.draws,
    black: a.black,
    moves: a.moves.map((m) => ({ uci: m.uci, san: m.san, averageRating: m.averageRating ?? null, white: m.white, draws: m.draws, black: m.black })),
    opening: a.opening ? { eco: a.opening.eco, name: a.opening.name } : null,
  };
}

/** The lichess database at the position, for the rating groups and speeds asked (no sample games). */
export async function explorerLichess(opts: LichessOptions, q: LichessQuery): Promise<ExplorerAnswer> {
  const params = new URLSearchParams({
    variant: 'standard',
    fen: q.fen,
    ratings: q.ratings.join(','),
    speeds: q.speeds.join(','),
    // Every move played there (the default is 12), so a rare move of the owner's is found too.
    moves: '30',
    topGames: '0',
    recentGames: '0',
  });
  const what = 'lichess opening explorer';
  return parse(await getJson(opts, `${opts.baseUrl}/lichess?${params}`, what, lichessHeaders(opts, 'application/json')), what);
}

/** The masters database at the position. */
export async function explorerMasters(opts: LichessOptions, fen: string): Promise<ExplorerAnswer> {
  const params = new URLSearchParams({ fen, moves: '30', topGames: '0' });
  const what = 'lichess opening explorer (masters)';
  return parse(await getJson(opts, `${opts.baseUrl}/masters?${params}`, what, lichessHeaders(opts, 'application/json')), what);
}
