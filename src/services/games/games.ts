import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { addDays } from '../common/index.js';
import { GAMES_PAGE_SIZE, type GameList, type GameSummary, type ListGamesInput } from '../../../schemas/games.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError, Messages } from '../../errors.js';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { games, pgns } from '../../store/schema/index.js';
import type { GameRow } from './gameWriter.js';
import { memoByOwner } from '../common/index.js';
import { ownerStamp } from '../../store/ownerStamps.js';
import type { Store } from '../../store/db.js';
import { preparedOnce } from '../../store/prepared.js';

const effectiveAccuracy = sql`coalesce(${games.platformAccuracy}, ${games.reviewAccuracy})`;

/** LIKE pattern with the user's text taken literally (%, _ and \ escaped). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
const like = (column: SQLiteColumn, pattern: string) => sql`${column} LIKE ${pattern} ESCAPE '\\'`;

export function normaliseLine(lineMoves: string): string {
  return lineMoves.trim().split(/\s+/).join(' ');
}

/** The columns a game's summary shows (list rows and get_game). */
export const summaryColumns = {
  id: games.id,
  provider: games.provider,
  playedAt: games.playedAt,
  dateText: games.dateText,
  colour: games.colour,
  result: games.result,
  opponent: games.opponent,
  opponentRating: games.opponentRating,
  userRating: games.userRating,
  ratingDelta: games.ratingDelta,
  timeClass: games.timeClass,
  rated: games.rated,
  eco: games.eco,
  opening: games.opening,
  event: games.event,
  movesCount: games.movesCount,
  platformAccuracy: games.platformAccuracy,
  reviewAccuracy: games.reviewAccuracy,
  sourceUrl: games.sourceUrl,
};

export function toSummary(row: Pick<GameRow, keyof typeof summaryColumns>): GameSummary {
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
    // review_accuracy is written when the owner's review of the game's moves completes (review/queue.ts).
    reviewed: row.reviewAccuracy !== null,
  };
}

/**
 * Spec 4.2: every filter and sort of the games list, scoped to the owner. A page is kept per version
 * of the owner's games (ownerMemo.ts): an agent paging, or asking again, reads it from memory until a
 * game changes. The input is the whole key (it holds no dates relative to today).
 */
export function listGames(ctx: PersonalCtx, input: ListGamesInput): GameList {
  // An inverted range is a mistake to report, not a filter to drop silently (issue 27 supersedes the
  // spec's "drops both bounds": an agent that swapped them got every game and no sign of it).
  if (input.from !== undefined && input.to !== undefined && input.from > input.to) {
    throw new ApiError(400, `from (${input.from}) is after to (${input.to}): give the earlier day as from, the later as to`);
  }
  return memoByOwner(ctx.store, ctx.user.id, `list_games ${JSON.stringify(input)}`, () => computeListGames(ctx, input));
}

function computeListGames(ctx: PersonalCtx, input: ListGamesInput): GameList {
  const conds: SQL[] = [eq(games.userId, ctx.user.id)];
  if (input.provider) conds.push(inArray(games.provider, input.provider));
  if (input.result) conds.push(inArray(games.result, input.result));
  if (input.colour) conds.push(inArray(games.colour, input.colour));
  if (input.timeClass) conds.push(inArray(games.timeClass, input.timeClass));
  const from = input.from ?? null;
  const to = input.to ?? null;
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
  if (input.reviewed) conds.push(input.reviewed === 'yes' ? isNotNull(games.reviewAccuracy) : isNull(games.reviewAccuracy));
  const where = and(...conds);
  // The owner's game count is kept by triggers; a filtered count is kept per version of their games,
  // so paging through one filter counts it once.
  const filterKey = JSON.stringify([input.provider, input.result, input.colour, input.timeClass, from, to, input.movesMin, input.movesMax, input.opening, input.opponent, line, input.q, input.reviewed]);
  const total =
    conds.length === 1
      ? ownerStamp(ctx.store, ctx.user.id).games
      : memoByOwner(ctx.store, ctx.user.id, `list_games.total ${filterKey}`, () => ctx.store.db.select({ n: count() }).from(games).where(where).get()?.n ?? 0);
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
  // The page is chosen on narrow data (the covering indexes of schema/games.ts hold every filter and
  // sort column), and only its 50 wide rows are read: sorting thousands of whole rows (moves, clocks)
  // to keep 50 was most of a filtered list's time.
  const rowid = sql`${games}.rowid`;
  const chosen = ctx.store.db
    .select({ rowid })
    .from(games)
    .where(where)
    .orderBy(...order)
    .limit(GAMES_PAGE_SIZE)
    .offset((page - 1) * GAMES_PAGE_SIZE);
  const rows = ctx.store.db
    .select()
    .from(games)
    .where(inArray(rowid, chosen))
    .orderBy(...order)
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
      reviewed: input.reviewed ?? null,
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
const ownedGameQuery = (db: Store['db']) =>
  db
    .select()
    .from(games)
    .where(and(eq(games.id, sql.placeholder('id')), eq(games.userId, sql.placeholder('userId'))))
    .prepare();

export function ownedGame(ctx: PersonalCtx, id: string): GameRow {
  const row = preparedOnce(ctx.store, ownedGameQuery).get({ id, userId: ctx.user.id });
  if (!row) throw new ApiError(404, Messages.gameNotFound);
  return row;
}

const pgnTextQuery = (db: Store['db']) => db.select({ text: pgns.text }).from(pgns).where(eq(pgns.hash, sql.placeholder('hash'))).prepare();

/** The stored PGN text with this content hash, or null. */
export function storedPgnText(store: Store, hash: string): string | null {
  return preparedOnce(store, pgnTextQuery).get({ hash })?.text ?? null;
}

/** The stored PGN of an owned game; a game without one answers like an unknown id, naming the fix. */
export function gamePgn(ctx: PersonalCtx, id: string): string {
  const row = ownedGame(ctx, id);
  const text = row.pgnHash ? storedPgnText(ctx.store, row.pgnHash) : null;
  if (text === null) throw new ApiError(404, 'that game has no stored PGN; attach one with attach_pgn');
  return text;
}
