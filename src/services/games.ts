import { and, asc, count, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { addDays } from './stats/window.js';
import { GAMES_PAGE_SIZE, type GameDetail, type GameList, type GameSummary, type ListGamesInput } from '../../schemas/games.js';
import type { PersonalCtx } from '../context.js';
import { ApiError, Messages } from '../errors.js';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { games, pgns } from '../store/schema/index.js';
import type { GameRow } from './gameWriter.js';
import { reviewSummaryFor } from './gameReview.js';

const effectiveAccuracy = sql`coalesce(${games.platformAccuracy}, ${games.reviewAccuracy})`;

/** LIKE pattern with the user's text taken literally (%, _ and \ escaped). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
const like = (column: SQLiteColumn, pattern: string) => sql`${column} LIKE ${pattern} ESCAPE '\\'`;

export function normaliseLine(lineMoves: string): string {
  return lineMoves.trim().split(/\s+/).join(' ');
}

export function toSummary(row: GameRow): GameSummary {
  const accuracy = row.platformAccuracy ?? row.reviewAccuracy;
  return {
    id: row.id,
    provider: row.provider,
    playedAt: row.playedAt,
    dateText: row.dateText ?? null,
    colour: row.colour,
    result: row.result,
    opponent: row.opponent,
    opponentRating: row.opponentRating,
    userRating: row.userRating,
    ratingDelta: row.ratingDelta,
    timeClass: row.timeClass as GameSummary['timeClass'],
    rated: row.rated,
    eco: row.eco,
    opening: row.opening,
    event: row.event,
    movesCount: row.movesCount,
    accuracy,
    accuracySource: row.platformAccuracy !== null ? 'platform' : row.reviewAccuracy !== null ? 'review' : null,
    sourceUrl: row.sourceUrl,
  };
}

/** Spec 4.2: every filter and sort of the games list, scoped to the owner. */
export function listGames(ctx: PersonalCtx, input: ListGamesInput): GameList {
  const conds: SQL[] = [eq(games.userId, ctx.user.id)];
  if (input.provider) conds.push(inArray(games.provider, input.provider));
  if (input.result) conds.push(inArray(games.result, input.result));
  if (input.colour) conds.push(inArray(games.colour, input.colour));
  if (input.timeClass) conds.push(inArray(games.timeClass, input.timeClass));
  // An inverted pair drops both bounds (spec), rather than matching nothing.
  const inverted = input.from !== undefined && input.to !== undefined && input.from > input.to;
  const from = inverted ? null : (input.from ?? null);
  const to = inverted ? null : (input.to ?? null);
  if (from) conds.push(gte(games.playedAt, from));
  if (to) conds.push(lt(games.playedAt, addDays(to, 1)));
  if (input.movesMin !== undefined) conds.push(gte(games.movesCount, input.movesMin));
  if (input.movesMax !== undefined) conds.push(lte(games.movesCount, input.movesMax));
  if (input.opening) conds.push(like(games.opening, `${likeLiteral(input.opening)}%`));
  if (input.opponent) conds.push(like(games.opponent, `%${likeLiteral(input.opponent)}%`));
  const line = input.lineMoves ? normaliseLine(input.lineMoves) : null;
  if (line) {
    // Case-sensitive prefix on whole moves, as an index range: [line, line + "!") holds exactly the line
    // itself and the line followed by a space (" " is 0x20, "!" 0x21; no SAN character lies between), so
    // "e4 c5" matches "e4 c5 Nf3" but not "e4 c50", "E4 c5", nor "… Qh5" a game with "… Qh5+".
    conds.push(gte(games.sanMoves, line), lt(games.sanMoves, `${line}!`));
  }
  if (input.q) {
    const p = `%${likeLiteral(input.q)}%`;
    conds.push(or(like(games.opponent, p), like(games.opening, p), like(games.event, p), like(games.eco, p))!);
  }
  const where = and(...conds);
  // Unfiltered, SQLite would count over the widest covering index (the SAN mainline); the narrow one is 10× smaller.
  const total =
    conds.length === 1
      ? (ctx.store.sqlite.prepare('SELECT count(*) AS n FROM games INDEXED BY games_user_played WHERE user_id = ?').get(ctx.user.id) as { n: number }).n
      : (ctx.store.db.select({ n: count() }).from(games).where(where).get()?.n ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / GAMES_PAGE_SIZE));
  const page = input.page > pageCount ? 1 : input.page;
  const order =
    input.sort === 'date-asc'
      ? [asc(games.playedAt), asc(games.id)]
      : input.sort === 'date-desc'
        ? [desc(games.playedAt), desc(games.id)]
        : [
            sql`${effectiveAccuracy} IS NULL`,
            input.sort === 'accuracy-desc' ? sql`${effectiveAccuracy} DESC` : sql`${effectiveAccuracy} ASC`,
            desc(games.playedAt),
            desc(games.id),
          ];
  const rows = ctx.store.db
    .select()
    .from(games)
    .where(where)
    .orderBy(...order)
    .limit(GAMES_PAGE_SIZE)
    .offset((page - 1) * GAMES_PAGE_SIZE)
    .all();
  return {
    filters: {
      q: input.q ?? null,
      providers: input.provider ?? null,
      results: input.result ?? null,
      colours: input.colour ?? null,
      timeClasses: input.timeClass ?? null,
      from,
      to,
      movesMin: input.movesMin ?? null,
      movesMax: input.movesMax ?? null,
      opening: input.opening ?? null,
      opponent: input.opponent ?? null,
      lineMoves: line,
      sort: input.sort,
    },
    page,
    pageCount,
    total,
    pageSize: GAMES_PAGE_SIZE,
    games: rows.map(toSummary),
  };
}

/** An owned game row; unknown and foreign ids give the same 404. */
export function ownedGame(ctx: PersonalCtx, id: string): GameRow {
  const row = ctx.store.db
    .select()
    .from(games)
    .where(and(eq(games.id, id), eq(games.userId, ctx.user.id)))
    .get();
  if (!row) throw new ApiError(404, Messages.gameNotFound);
  return row;
}

export function gameDetail(ctx: PersonalCtx, id: string): GameDetail {
  const row = ownedGame(ctx, id);
  const pgn = row.pgnHash ? (ctx.store.db.select({ text: pgns.text }).from(pgns).where(eq(pgns.hash, row.pgnHash)).get()?.text ?? null) : null;
  return {
    ...toSummary(row),
    // Moves only from a stored PGN or the recorded opening line: never invented.
    moves: row.movesSource && row.sanMoves ? row.sanMoves.split(' ') : [],
    movesSource: row.movesSource && row.sanMoves ? row.movesSource : null,
    pgn,
    review: reviewSummaryFor(ctx, row),
  };
}
