import { z } from 'zod';
import { request } from '../http.js';
import { describeIssue, readJsonCapped, SourceFormatError, SourceHttpError } from '../types.js';
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

/**
 * What an answer may hold (issue 44 item 7): the explorer is another server, so its answer is bounded like any
 * input. We ask for EXPLORER_MOVES moves (`moves=30`), so more is not the explorer's answer to our question; a
 * move's SAN is one move in Standard Algebraic Notation (PGN standard 8.2.3: piece letter, disambiguation,
 * capture, square, promotion, check or mate; or castling), which also keeps markup out; an opening name is at
 * most OPENING_NAME_MAX characters (lichess's longest, in lichess-org/chess-openings, are under 100) and its ECO
 * code a letter A–E and two digits; and the whole body at most EXPLORER_BODY_MAX_BYTES, counted while it streams
 * (30 moves with totals and an opening are about 4 KB).
 */
export const EXPLORER_MOVES = 30;
export const OPENING_NAME_MAX = 200;
export const EXPLORER_BODY_MAX_BYTES = 256 * 1024;
const SAN = /^(?:[NBRQK][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=[NBRQ])?|O-O(?:-O)?)[+#]?$/;

/** One move from the position: games won by White, drawn, won by Black after it. Fields we do not read are let through. */
const ExplorerMove = z.object({
  uci: z.string().regex(/^[a-h][1-8][a-h][1-8][qrbn]?$/),
  san: z.string().max(8).regex(SAN, 'not a move in SAN'),
  averageRating: z.number().nullable().optional(),
  white: count,
  draws: count,
  black: count,
});

export const ExplorerAnswer = z.object({
  white: count,
  draws: count,
  black: count,
  moves: z.array(ExplorerMove).max(EXPLORER_MOVES, `more than the ${EXPLORER_MOVES} moves asked for`),
  opening: z
    .object({ eco: z.string().regex(/^[A-E]\d\d$/), name: z.string().max(OPENING_NAME_MAX) })
    .nullable()
    .optional(),
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
    moves: String(EXPLORER_MOVES),
    topGames: '0',
    recentGames: '0',
  });
  const what = 'lichess opening explorer';
  return parse(await getExplorer(opts, `${opts.baseUrl}/lichess?${params}`, what), what);
}

/**
 * One explorer GET: redirects are not followed (a 3xx, to another origin or not, is a failure naming where it
 * pointed: the token goes to the configured origin only), and the body is read up to EXPLORER_BODY_MAX_BYTES.
 */
async function getExplorer(opts: LichessOptions, url: string, what: string): Promise<unknown> {
  const init = { headers: { accept: 'application/json', ...lichessHeaders(opts, 'application/json') }, redirect: 'manual' as const, accept: (status: number) => status >= 200 && status < 400 };
  return request(opts, url, what, init, async (res) => {
    if (res.status >= 300 && res.status < 400) {
      void res.body?.cancel().catch(() => undefined);
      const to = res.headers.get('location');
      let where = 'elsewhere';
      try {
        where = to ? new URL(to, url).origin : where;
      } catch {
        // an unreadable Location: said as "elsewhere"
      }
      throw new SourceHttpError(res.status, `${what}: HTTP ${res.status} redirect to ${where}, not followed`);
    }
    return readJsonCapped(res, what, EXPLORER_BODY_MAX_BYTES);
  });
}

/** The masters database at the position. */
export async function explorerMasters(opts: LichessOptions, fen: string): Promise<ExplorerAnswer> {
  const params = new URLSearchParams({ fen, moves: String(EXPLORER_MOVES), topGames: '0' });
  const what = 'lichess opening explorer (masters)';
  return parse(await getExplorer(opts, `${opts.baseUrl}/masters?${params}`, what), what);
}
