import { z } from 'zod';
import { describeIssue, SourceFormatError, type SourceRecord } from '../types.js';

/** Rating types of over-the-board play, as the games endpoint names them, and our raw time class. */
export const ECF_TYPES = [
  { path: 'Standard', letter: 'S', timeClass: 'standard' },
  { path: 'Rapid', letter: 'R', timeClass: 'rapid' },
  { path: 'Blitz', letter: 'B', timeClass: 'blitz' },
] as const;
export type EcfType = (typeof ECF_TYPES)[number];

// Field types are unconfirmed (2020-era clients saw strings, newer ones numbers): accept both.
const num = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);
const optNum = z.union([num, z.literal(''), z.null()]).optional().transform((v) => (v === '' || v === null || v === undefined ? null : v));

const EcfGame = z.object({
  game_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  colour: z.enum(['W', 'B', 'w', 'b']),
  score: num,
  opponent_name: z.string().min(1),
  opponent_no: z.union([z.number(), z.string()]).optional().nullable(),
  opponent_rating: optNum,
  player_rating: optNum,
  increment: optNum,
  event_code: z.string().optional().nullable(),
  event_name: z.string().optional().nullable(),
  section_title: z.string().optional().nullable(),
});

const GamesAnswer = z.object({ games: z.array(z.unknown()), success: z.boolean().optional() });

/** ECF score codes: 1 win, 0 loss, 5 draw (legacy half-point code; 0.5 accepted too). */
function resultOf(score: number): 'win' | 'draw' | 'loss' {
  if (score === 1) return 'win';
  if (score === 0) return 'loss';
  if (score === 5 || score === 0.5) return 'draw';
  throw new Error(`unknown score ${score}`);
}

/**
 * An ECF game has no id, so the key is natural: type, date, colour, opponent (code, else name) and event.
 * The score and ratings are left out because the ECF recalculates them; two games matching on all of
 * those (a double round) are told apart by their order within the answer ("#2").
 */
export function ecfNaturalKey(type: EcfType, date: string, colour: 'W' | 'B', opponent: string, event: string): string {
  return `${type.letter}:${date}:${colour}:${opponent}:${event}`;
}

/**
 * The games answer for one rating type → game rows (all or nothing). ECF dates carry no time: the row
 * is placed at 12:00 UTC, which every zone from UTC−11 to UTC+11 sees on the published date.
 */
export function parseEcfGames(raw: unknown, type: EcfType, code: string, playerPage: string): SourceRecord[] {
  const where = `ECF ${type.path} games of ${code}`;
  const ans = GamesAnswer.safeParse(raw);
  if (!ans.success) throw new SourceFormatError(describeIssue(where, ans.error));
  if (ans.data.success === false) throw new SourceFormatError(`${where}: the ECF answered success=false`);
  const seen = new Map<string, number>();
  return ans.data.games.map((item, i) => {
    const r = EcfGame.safeParse(item);
    if (!r.success) throw new SourceFormatError(describeIssue(`${where}: games[${i}]`, r.error));
    const g = r.data;
    let result;
    try {
      result = resultOf(g.score);
    } catch {
      throw new SourceFormatError(`${where}: games[${i}].score: unknown score code ${g.score}`);
    }
    const colour = g.colour.toUpperCase() as 'W' | 'B';
    const opponentKey = g.opponent_no !== undefined && g.opponent_no !== null && String(g.opponent_no) !== '' ? String(g.opponent_no) : g.opponent_name.toLowerCase();
    const base = ecfNaturalKey(type, g.game_date, colour, opponentKey, g.event_code ?? g.event_name ?? '');
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return {
      game: {
        provider: 'fed',
        sourceId: n > 1 ? `${base}#${n}` : base,
        playedAt: `${g.game_date}T12:00:00.000Z`,
        colour: colour === 'W' ? 'white' : 'black',
        result,
        opponent: g.opponent_name,
        opponentRating: g.opponent_rating === null ? null : Math.round(g.opponent_rating),
        userRating: g.player_rating === null ? null : Math.round(g.player_rating),
        // The ECF credits a decimal change per game (K·(W−We)); the column is whole points.
        ratingDelta: g.increment === null ? null : Math.round(g.increment),
        timeClass: type.timeClass,
        timeControl: null,
        rated: true,
        eco: null,
        opening: null,
        event: g.event_name ?? null,
        movesCount: 0,
        platformAccuracy: null,
        sourceUrl: playerPage,
      },
      pgn: null,
    } satisfies SourceRecord;
  });
}

const RatingAnswer = z.object({
  revised_rating: optNum,
  original_rating: optNum,
  success: z.boolean().optional(),
});

/** A published rating (the revised figure, which is what the ECF currently shows), or null when there is none. */
export function parseEcfRating(raw: unknown, what: string): number | null {
  const r = RatingAnswer.safeParse(raw);
  if (!r.success) throw new SourceFormatError(describeIssue(what, r.error));
  const v = r.data.revised_rating ?? r.data.original_rating;
  return v === null || v === undefined || v === 0 ? null : Math.round(v);
}

const Budget = z.object({ total_processing_time_today: optNum, max_processing_time_daily: optNum });

/**
 * The ECF budgets processing time per day per network (reset at midnight GMT); every answer reports
 * the day's total and the maximum. Returns a message when less than `reserve` of it is left.
 */
export function ecfBudgetExhausted(raw: unknown, reserve = 0.05): string | null {
  const r = Budget.safeParse(raw);
  if (!r.success) return null;
  const used = r.data.total_processing_time_today;
  const max = r.data.max_processing_time_daily;
  if (used === null || used === undefined || !max) return null;
  return used >= max * (1 - reserve) ? `the ECF daily processing budget is nearly used (${used} of ${max} s); it resets at midnight GMT` : null;
}
