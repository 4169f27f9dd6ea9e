import { z } from 'zod';
import { classifyReplayed, OPENING_PLIES } from '../../chess/openings.js';
import { parsePgnMainline, PgnError } from '../../chess/pgn.js';
import { describeIssue, SourceFormatError, type SourceRecord, type SourceSkip } from '../types.js';

const Side = z.object({ username: z.string(), rating: z.number().int(), result: z.string() });

/** The fields of a monthly-archive game we read (PubAPI "Game" object); others are ignored. */
export const ChesscomGame = z.object({
  url: z.string().min(1),
  pgn: z.string().optional(),
  time_control: z.string(),
  end_time: z.number().int(),
  start_time: z.number().int().optional(),
  rated: z.boolean(),
  accuracies: z.object({ white: z.number(), black: z.number() }).partial().optional(),
  time_class: z.string(),
  rules: z.string(),
  white: Side,
  black: Side,
  uuid: z.string().optional(),
  tournament: z.string().optional(),
  match: z.string().optional(),
});
export type ChesscomGame = z.infer<typeof ChesscomGame>;

export const MonthArchive = z.object({ games: z.array(z.unknown()) });
export const ArchivesList = z.object({ archives: z.array(z.string()) });

// Legacy class names chess.com still sends in places (developer RFC): "standard" is rapid, "lightning" bullet.
const LEGACY_CLASS: Record<string, string> = { standard: 'rapid', lightning: 'bullet' };
// Generic Event tags that name no event.
const GENERIC_EVENTS = new Set(['Live Chess', "Let's Play!", '?', '']);

/** "…/game/live/123" → "live/123": live and daily ids are separate number spaces, so the kind is kept. */
export function chesscomGameId(url: string): string {
  const m = /\/(?:game\/)?(live|daily)\/(?:game\/)?(\d+)/.exec(url) ?? /\/daily\/game\/(\d+)/.exec(url);
  if (m && m.length === 3) return `${m[1]}/${m[2]}`;
  if (m) return `daily/${m[1]}`;
  return url;
}

/** Rating state carried from game to game: the owner's post-game rating per rated time class. */
export type RatingChain = Record<string, number>;

/**
 * One archive game → a game of `username`. chess.com's `rating` is the rating AFTER the game (the
 * current doc; the fixtures agree: stats `last.rating` equals the rating in the latest game of each class).
 * So the pre-game rating is the previous rated game's post-game rating in the same class, carried in
 * `chain`, and the delta is their difference; with no earlier game both are unknown (null).
 * The opponent's rating is the post-game figure as published (their earlier games are not ours to see).
 */
export function parseChesscomGame(raw: unknown, username: string, chain: RatingChain, where: string): SourceRecord | SourceSkip {
  const r = ChesscomGame.safeParse(raw);
  if (!r.success) throw new SourceFormatError(describeIssue(where, r.error));
  const g = r.data;
  const sourceId = chesscomGameId(g.url);
  if (g.rules !== 'chess') return { skip: 'variant', sourceId };
  const me = username.toLowerCase();
  const colour = g.white.username.toLowerCase() === me ? 'white' : g.black.username.toLowerCase() === me ? 'black' : null;
  if (!colour) return { skip: 'not-owner', sourceId };
  const own = g[colour];
  const opp = g[colour === 'white' ? 'black' : 'white'];
  // W if "win"; D if neither side won; otherwise L (any unknown losing code included).
  const result = own.result === 'win' ? 'win' : opp.result === 'win' ? 'loss' : 'draw';
  if (!g.pgn) throw new SourceFormatError(`${where}: game ${sourceId} has no pgn`);
  let parsed;
  try {
    // Replayed once, keeping the opening's positions to name it from.
    parsed = parsePgnMainline(g.pgn, { requireMoves: false, fenPlies: OPENING_PLIES });
  } catch (err) {
    if (err instanceof PgnError) throw new SourceFormatError(`${where}: game ${sourceId}: pgn does not parse: ${err.message}`);
    throw err;
  }
  const h = parsed.headers;
  const timeClass = LEGACY_CLASS[g.time_class] ?? g.time_class;
  let userRating: number | null = own.rating;
  let ratingDelta: number | null = null;
  if (g.rated) {
    const before = chain[timeClass];
    userRating = before ?? null;
    ratingDelta = before === undefined ? null : own.rating - before;
    chain[timeClass] = own.rating;
  }
  const startedFromPgn = h.UTCDate && h.UTCTime ? Date.parse(`${h.UTCDate.replace(/\./g, '-')}T${h.UTCTime}Z`) : NaN;
  const playedAt = g.start_time ? g.start_time * 1000 : Number.isFinite(startedFromPgn) ? startedFromPgn : g.end_time * 1000;
  const named = classifyReplayed(parsed);
  const ecoSlug = h.ECOUrl ? decodeURIComponent(h.ECOUrl.split('/openings/')[1] ?? '').replace(/-/g, ' ').trim() : '';
  return {
    game: {
      provider: 'siteA',
      sourceId,
      playedAt: new Date(playedAt).toISOString(),
      colour,
      result,
      opponent: opp.username,
      opponentRating: opp.rating,
      userRating,
      ratingDelta,
      timeClass,
      timeControl: g.time_control,
      rated: g.rated,
      eco: h.ECO ?? named?.eco ?? null,
      // Named from the shared (lichess) opening table so families group across sites; chess.com's own name as fallback.
      opening: named?.name ?? (ecoSlug || null),
      event: h.Event && !GENERIC_EVENTS.has(h.Event) ? h.Event : null,
      movesCount: 0,
      platformAccuracy: g.accuracies?.[colour] ?? null,
      sourceUrl: g.url,
    },
    pgn: parsed.plies.length ? { text: g.pgn, parsed } : null,
  };
}

const Stamp = z.object({ rating: z.number().int(), date: z.number().int() });
const Stats = z.object({ tactics: z.object({ highest: Stamp.optional(), lowest: Stamp.optional() }).optional() });

/** Tactics peak and low (chess.com publishes no current puzzle rating) as rating points. */
export function parseTactics(raw: unknown): Array<{ series: string; date: string; rating: number }> {
  const r = Stats.safeParse(raw);
  if (!r.success) throw new SourceFormatError(describeIssue('chess.com stats', r.error));
  const out: Array<{ series: string; date: string; rating: number }> = [];
  const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
  if (r.data.tactics?.highest) out.push({ series: 'tactics-highest', date: day(r.data.tactics.highest.date), rating: r.data.tactics.highest.rating });
  if (r.data.tactics?.lowest) out.push({ series: 'tactics-lowest', date: day(r.data.tactics.lowest.date), rating: r.data.tactics.lowest.rating });
  return out;
}
