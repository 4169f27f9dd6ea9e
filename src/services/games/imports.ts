import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { and, eq, isNull, like } from 'drizzle-orm';
import { classifyOpening, classifyReplayed, OPENING_PLIES } from '../../chess/openings.js';
import { parsePgn, parsePgnMainline, pgnGameSplitter, PgnError, sha256, type ParsedGame, type ParsedMainline } from '../../chess/pgn.js';
import type { AppDeps, User } from '../../context.js';
import { chesscomGameId } from '../../sources/chesscom/parse.js';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { games } from '../../store/schema/index.js';
import { insertGames, movesColumns, storePgn, type GameRow, type NewGame } from './gameWriter.js';

export interface ImportProblem {
  /** 1-based position of the game in the file. */
  index: number;
  reason: string;
  white?: string;
  black?: string;
  date?: string;
}

export interface ImportReport {
  games: number;
  imported: number;
  /** Already in the store (same source game, or same moves, date and players). */
  duplicates: number;
  /** Linked to the matching ECF result (same date, opponent, colour and result) instead of a new row. */
  linkedToFed: number;
  errors: ImportProblem[];
}

export interface ImportOptions {
  /** The owner's side: "white", "black", or the owner's name as written in the file. */
  as?: string;
  onProgress?: (report: ImportReport) => void;
  batchSize?: number;
}

/** Lowercase letters and digits of a name, "Surname, Forename" turned round: both spellings meet. */
export function normaliseName(name: string): string {
  const turned = name.includes(',') ? name.split(',').map((p) => p.trim()).reverse().join(' ') : name;
  return turned.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, ' ').trim();
}

/**
 * Raw time class from a PGN TimeControl, with lichess's rule: estimated seconds = initial + 40 × increment.
 * "moves/seconds" periods (40/5400:1800+30) count the first period; one move per period ("1/86400") is
 * correspondence, as is "-". Without a TimeControl the game is taken as classical (over-the-board files).
 */
export function timeClassOf(timeControl: string | null | undefined): string {
  const tc = (timeControl ?? '').trim();
  if (!tc || tc === '?') return 'classical';
  if (tc === '-') return 'correspondence';
  const periods = tc.split(':');
  const first = /^(?:(\d+)\/)?(\d+)(?:\+(\d+(?:\.\d+)?))?$/.exec(periods[0]);
  const last = /\+(\d+(?:\.\d+)?)$/.exec(periods[periods.length - 1]);
  if (!first) return 'classical';
  if (first[1] === '1') return 'correspondence';
  const est = Number(first[2]) + 40 * Number(first[3] ?? last?.[1] ?? 0);
  if (est < 30) return 'ultraBullet';
  if (est < 180) return 'bullet';
  if (est < 480) return 'blitz';
  if (est < 1500) return 'rapid';
  return 'classical';
}

/** A PGN tag's value, or null for the placeholders "?", "-" and blank (PGN standard 8.1.1). */
export const tagValue = (v: string | undefined) => (v && v !== '?' && v !== '-' && v.trim() ? v.trim() : null);
const toInt = (v: string | undefined) => (v && /^[+-]?\d+$/.test(v.trim()) ? Number(v) : null);

/**
 * When a PGN game was played: an instant for `playedAt`, plus the date text when it is partial.
 * PGN standard 8.1.1.3: unknown parts of Date are "??". A date alone sits at 12:00 UTC (as ECF rows do);
 * year-only and year-month dates are placed on the first day of the known period, and keep their text.
 * A game with no year at all is refused with the fix (this project does not invent an order for it).
 */
export function playedAtOf(h: Record<string, string>): { playedAt: string; dateText: string | null } | { refused: string } {
  const utc = /^(\d{4})\.(\d{2})\.(\d{2})$/.exec(h.UTCDate ?? '');
  const raw = (utc ? h.UTCDate : h.Date)?.trim() ?? '';
  const m = /^(\d{4}|\?{4})[.-](\d{2}|\?{2})[.-](\d{2}|\?{2})$/.exec(raw) ?? /^(\d{4})$/.exec(raw);
  const fix = 'set at least the year in the Date tag, e.g. [Date "1934.??.??"] (unknown month and day as ??)';
  if (!m || m[1] === '????') return { refused: `the game has no usable date (Date "${h.Date ?? ''}"): ${fix}` };
  const [year, month, day] = [m[1], m[2] ?? '??', m[3] ?? '??'];
  if (month === '??' && day !== '??') return { refused: `the game's date gives a day without a month (Date "${raw}"): ${fix}` };
  const exact = month !== '??' && day !== '??';
  const time = utc && /^\d{2}:\d{2}:\d{2}$/.test(h.UTCTime ?? '') ? h.UTCTime : '12:00:00';
  const iso = `${year}-${month === '??' ? '01' : month}-${day === '??' ? '01' : day}`;
  const d = new Date(`${iso}T${exact ? time : '12:00:00'}.000Z`);
  // Date.parse rolls "2025-02-30" over to March: a date that does not round-trip does not exist.
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso) return { refused: `the game's date does not exist (Date "${raw}")` };
  return { playedAt: d.toISOString(), dateText: exact ? null : raw };
}

function ownerSide(h: Record<string, string>, user: User, as: string | undefined): 'white' | 'black' | string {
  if (as === 'white' || as === 'black') return as;
  const names = (as ? [as] : [user.usernameSiteA, user.usernameSiteB, user.displayName]).filter((n): n is string => !!n).map(normaliseName);
  const w = names.includes(normaliseName(h.White ?? ''));
  const b = names.includes(normaliseName(h.Black ?? ''));
  if (w && b) return 'both players match the owner’s names; say which side with --as white|black';
  if (w) return 'white';
  if (b) return 'black';
  return `neither "${h.White ?? '?'}" nor "${h.Black ?? '?'}" is the owner (${names.join(', ') || 'no names on the profile'}); use --as white|black|NAME`;
}

/** A game of a file (or a manual entry's PGN) → a row of `provider`. Throws a message for a game that cannot be stored. */
export function rowFromPgn(user: User, text: string, parsed: ParsedGame | ParsedMainline, provider: 'pgn' | 'manual', as?: string): NewGame {
  const h = parsed.headers;
  const side = ownerSide(h, user, as);
  if (side !== 'white' && side !== 'black') throw new Error(side);
  const result = h.Result && h.Result !== '*' ? h.Result : parsed.result;
  if (!['1-0', '0-1', '1/2-1/2'].includes(result)) throw new Error(`the game has no result (Result "${result}")`);
  const when = playedAtOf(h);
  if ('refused' in when) throw new Error(when.refused);
  const { playedAt, dateText } = when;
  const won = result === '1/2-1/2' ? 'draw' : (result === '1-0') === (side === 'white') ? 'win' : 'loss';
  const opp = side === 'white' ? 'Black' : 'White';
  const own = side === 'white' ? 'White' : 'Black';
  const cols = movesColumns(parsed, sha256(text));
  // Named from the moves only where the tags do not say (the same answer, without walking the moves for nothing).
  const named = tagValue(h.ECO) && tagValue(h.Opening) ? null : classifyReplayed('fensAfter' in parsed ? parsed : { ...parsed, fensAfter: parsed.plies.map((p) => p.fenAfter) });
  const url = [h.Link, h.Site].find((v) => v && /^https?:\/\//.test(v)) ?? '';
  const onlineId = /lichess\.org\/([A-Za-z0-9]{8})/.exec(url)?.[1] ? `lichess:${/lichess\.org\/([A-Za-z0-9]{8})/.exec(url)![1]}` : /chess\.com\/.*game/.test(url) ? `chesscom:${chesscomGameId(url)}` : null;
  const event = tagValue(h.Event);
  return {
    userId: user.id,
    provider,
    // Same source game, or same moves, date and players: the same key, so a second import is a duplicate.
    sourceId: onlineId ?? sha256(`${playedAt.slice(0, 10)}|${normaliseName(h.White ?? '')}|${normaliseName(h.Black ?? '')}|${cols.movesKey}`).slice(0, 40),
    playedAt,
    dateText,
    colour: side,
    result: won,
    opponent: tagValue(h[opp]) ?? 'Unknown',
    opponentRating: toInt(h[`${opp}Elo`]),
    userRating: toInt(h[`${own}Elo`]),
    ratingDelta: toInt(h[`${own}RatingDiff`]),
    timeClass: timeClassOf(h.TimeControl),
    timeControl: tagValue(h.TimeControl),
    rated: !!event && /\brated\b/i.test(event) && !/\bunrated\b/i.test(event),
    eco: tagValue(h.ECO) ?? named?.eco ?? null,
    opening: tagValue(h.Opening) ?? named?.name ?? null,
    // lichess's generic "rated blitz game" names no event.
    event: event && !/^(rated|casual) \w+ game$/i.test(event) && event !== 'Live Chess' ? event : null,
    platformAccuracy: null,
    sourceUrl: url,
    ...cols,
  };
}

/** The online game this PGN is a copy of, if that site's sync stored it already. */
function alreadySynced(deps: AppDeps, row: NewGame): boolean {
  const m = /^(lichess|chesscom):(.+)$/.exec(row.sourceId);
  if (!m) return false;
  const provider = m[1] === 'lichess' ? 'siteB' : 'siteA';
  return !!deps.store.db.select({ id: games.id }).from(games).where(and(eq(games.userId, row.userId), eq(games.provider, provider), eq(games.sourceId, m[2]))).get();
}

/**
 * The ECF result this over-the-board game is (same day, colour, result and opponent, no moves yet):
 * the PGN is linked to it, as an attach would, instead of a second row for the same game.
 */
function fedMatch(deps: AppDeps, row: NewGame): GameRow | null {
  if (/^(lichess|chesscom):/.test(row.sourceId)) return null;
  const candidates = deps.store.db
    .select()
    .from(games)
    .where(and(eq(games.userId, row.userId), eq(games.provider, 'fed'), like(games.playedAt, `${row.playedAt.slice(0, 10)}%`), eq(games.colour, row.colour), eq(games.result, row.result), isNull(games.pgnHash)))
    .all()
    .filter((g) => normaliseName(g.opponent) === normaliseName(row.opponent));
  return candidates.length === 1 ? candidates[0] : null;
}

/** Links the PGN to the ECF row: only the move columns change (and the row's version, as attach does). Inside a transaction. */
function linkToFed(deps: AppDeps, target: GameRow, row: NewGame, text: string): void {
  storePgn(deps.store, text, deps.clock.now().toISOString());
  deps.store.db
    .update(games)
    .set({
      sanMoves: row.sanMoves,
      movesSource: row.movesSource,
      movesKey: row.movesKey,
      movesCount: row.movesCount,
      pgnHash: row.pgnHash,
      clocks: row.clocks,
      eco: target.eco ?? row.eco,
      opening: target.opening ?? row.opening,
      timeControl: target.timeControl ?? row.timeControl,
      version: target.version + 1,
    })
    .where(and(eq(games.id, target.id), isNull(games.pgnHash)))
    .run();
}

/**
 * Imports a multi-game PGN, game by game: at most `batchSize` games are held, and each batch is one
 * transaction. A game that does not parse or cannot be placed is reported with its index and reason;
 * the others still import.
 */
export async function importPgnLines(deps: AppDeps, user: User, lines: AsyncIterable<string> | Iterable<string>, opts: ImportOptions = {}): Promise<ImportReport> {
  const report: ImportReport = { games: 0, imported: 0, duplicates: 0, linkedToFed: 0, errors: [] };
  const batchSize = opts.batchSize ?? 500;
  let queue: string[] = [];
  const splitter = pgnGameSplitter((t) => queue.push(t));
  const flush = () => {
    const batch: Array<{ game: NewGame; pgnText: string }> = [];
    const texts = queue;
    queue = [];
    for (const text of texts) {
      report.games += 1;
      const index = report.games;
      let parsed: ParsedMainline | null = null;
      try {
        parsed = parsePgnMainline(text, { fenPlies: OPENING_PLIES });
        batch.push({ game: rowFromPgn(user, text, parsed, 'pgn', opts.as), pgnText: text });
      } catch (err) {
        const h = parsed?.headers ?? Object.fromEntries([...text.matchAll(/^\[(\w+)\s+"([^"]*)"\]/gm)].map((m) => [m[1], m[2]]));
        const reason = err instanceof PgnError || err instanceof Error ? err.message : String(err);
        report.errors.push({ index, reason, white: h.White, black: h.Black, date: h.Date });
      }
    }
    const toInsert: typeof batch = [];
    const links: Array<{ target: GameRow; item: (typeof batch)[number] }> = [];
    for (const item of batch) {
      if (alreadySynced(deps, item.game)) {
        report.duplicates += 1;
        continue;
      }
      const target = fedMatch(deps, item.game);
      if (target && !links.some((l) => l.target.id === target.id)) links.push({ target, item });
      else toInsert.push(item);
    }
    // New rows and links to ECF results commit together.
    const res = insertGames(deps.store, deps.clock, toInsert, () => {
      for (const { target, item } of links) linkToFed(deps, target, item.game, item.pgnText);
    });
    report.imported += res.inserted;
    report.duplicates += res.skipped;
    report.linkedToFed += links.length;
    opts.onProgress?.(report);
  };
  for await (const line of lines) {
    splitter.line(line);
    if (queue.length >= batchSize) flush();
  }
  splitter.end();
  flush();
  return report;
}

/** Imports a PGN file from disk, streamed line by line. */
export async function importPgnFile(deps: AppDeps, user: User, path: string, opts: ImportOptions = {}): Promise<ImportReport> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  return importPgnLines(deps, user, rl, opts);
}

export const ManualGameInput = z.object({
  opponent: z.string().trim().min(1).describe('Opponent name as you write it'),
  result: z.enum(['win', 'draw', 'loss']).describe('Result from your side'),
  colour: z.enum(['white', 'black']).describe('The colour you played'),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T.*)?$/)
    .describe('YYYY-MM-DD (placed at 12:00 UTC) or an ISO timestamp'),
  timeClass: z.enum(['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'standard']).optional().describe('Raw time class; derived from timeControl when absent'),
  timeControl: z.string().optional().describe('PGN-style time control, e.g. 5400+30'),
  event: z.string().optional().describe('Event or tournament name'),
  opponentRating: z.number().int().optional().describe('Opponent rating before the game'),
  userRating: z.number().int().optional().describe('Your rating before the game'),
  rated: z.boolean().optional().describe('Whether the game was rated (default false)'),
  pgn: z.string().optional().describe('The game’s PGN (one game) when you have the moves'),
});
export type ManualGameInput = z.infer<typeof ManualGameInput>;

/** Records one game typed in by hand (provider `manual`); the same entry twice is one game. */
export function addManualGame(deps: AppDeps, user: User, raw: ManualGameInput): { id: string; duplicate: boolean } {
  const r = ManualGameInput.safeParse(raw);
  if (!r.success) throw new ApiError(400, `manual game: ${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`);
  const input = r.data;
  const playedAt = new Date(input.date.length === 10 ? `${input.date}T12:00:00.000Z` : input.date);
  if (Number.isNaN(playedAt.getTime())) throw new ApiError(400, `manual game: "${input.date}" is not a date`);
  let moves: Pick<NewGame, 'sanMoves' | 'movesSource' | 'movesKey' | 'movesCount' | 'pgnHash' | 'clocks'> = { sanMoves: null, movesSource: null, movesKey: null, movesCount: 0, pgnHash: null, clocks: null };
  let named = null;
  if (input.pgn) {
    let parsed;
    try {
      parsed = parsePgn(input.pgn);
    } catch (err) {
      throw new ApiError(400, `manual game: ${err instanceof Error ? err.message : String(err)}`);
    }
    moves = movesColumns(parsed, sha256(input.pgn));
    named = classifyOpening(parsed.plies.map((p) => p.san));
  }
  const day = playedAt.toISOString().slice(0, 10);
  const sourceId = sha256(`${day}|${input.colour}|${normaliseName(input.opponent)}|${input.event ?? ''}|${moves.movesKey ?? ''}`).slice(0, 40);
  const game: NewGame = {
    userId: user.id,
    provider: 'manual',
    sourceId,
    playedAt: playedAt.toISOString(),
    colour: input.colour,
    result: input.result,
    opponent: input.opponent,
    opponentRating: input.opponentRating ?? null,
    userRating: input.userRating ?? null,
    ratingDelta: null,
    timeClass: input.timeClass ?? timeClassOf(input.timeControl),
    timeControl: input.timeControl ?? null,
    rated: input.rated ?? false,
    eco: named?.eco ?? null,
    opening: named?.name ?? null,
    event: input.event ?? null,
    platformAccuracy: null,
    sourceUrl: '',
    ...moves,
  };
  const res = insertGames(deps.store, deps.clock, [{ game, pgnText: input.pgn }]);
  const row = deps.store.db.select({ id: games.id }).from(games).where(and(eq(games.userId, user.id), eq(games.provider, 'manual'), eq(games.sourceId, sourceId))).get()!;
  return { id: row.id, duplicate: res.inserted === 0 };
}
