import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  MAX_SAVED_POSITIONS,
  POSITIONS_PAGE_SIZE,
  type ListPositionsInput,
  type Position,
  type SavePositionInput,
} from '../../../schemas/coaching.js';
import { checkFen } from '../../chess/fen.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import { inTransaction, type Store } from '../../store/db.js';
import { jsonList, preparedOnce } from '../../store/prepared.js';
import { games, positionQuizzes, savedPositions } from '../../store/schema/index.js';
import { reviewedPosition } from '../review/index.js';
import { ownedStudyMainline } from '../study/index.js';
import { ownedFocus } from './focus.js';
import { memoByOwner } from '../common/index.js';

export const POSITION_NOT_FOUND = 'no owned saved position with that id; call list_saved_positions for ids';
export const SOURCE_GAME_NOT_FOUND = 'no owned game or study game with that id; call list_games or list_study_games for ids';

type PositionRow = typeof savedPositions.$inferSelect;

export function ownedPosition(ctx: PersonalCtx, id: string): PositionRow {
  const row = ctx.store.db
    .select()
    .from(savedPositions)
    .where(and(eq(savedPositions.id, id), eq(savedPositions.userId, ctx.user.id)))
    .get();
  if (!row) throw new ApiError(404, POSITION_NOT_FOUND);
  return row;
}

/** Never quizzed, or the latest quiz was wrong. */
const isDue = (r: PositionRow) => r.lastQuizCorrect !== true;
const dueCondition = or(isNull(savedPositions.lastQuizCorrect), eq(savedPositions.lastQuizCorrect, false))!;

/** Rows as the API shows them, with their quiz histories (one query for all rows). */
const historyQuery = (db: Store['db']) =>
  db
    .select()
    .from(positionQuizzes)
    .where(sql`${positionQuizzes.positionId} IN ${jsonList('ids')}`)
    .orderBy(asc(positionQuizzes.id))
    .prepare();

export function describePositions(ctx: PersonalCtx, rows: PositionRow[]): Position[] {
  const history = new Map<string, Position['quizHistory']>();
  if (rows.length) {
    for (const q of preparedOnce(ctx.store, historyQuery).all({ ids: JSON.stringify(rows.map((r) => r.id)) })) {
      const list = history.get(q.positionId) ?? [];
      list.push({ correct: q.correct, at: q.quizzedAt, entryId: q.entryId });
      history.set(q.positionId, list);
    }
  }
  return rows.map((r) => ({
    id: r.id,
    fen: r.fen,
    label: r.label,
    why: r.why,
    focusId: r.focusId,
    source: r.sourceKind && r.sourceId !== null && r.sourcePly !== null ? { kind: r.sourceKind, id: r.sourceId, ply: r.sourcePly } : null,
    evaluation: r.evalCp !== null || r.evalMate !== null ? { cp: r.evalCp, mate: r.evalMate } : null,
    bestMoveUci: r.bestMoveUci,
    lastQuizzedAt: r.lastQuizzedAt,
    quizHistory: history.get(r.id) ?? [],
    dueForQuiz: isDue(r),
    createdAt: r.createdAt,
  }));
}

/** The owner's played or study game with that id: its mainline identity and length. */
function ownedSourceGame(ctx: PersonalCtx, id: string): { kind: 'game' | 'study'; movesKey: string | null; plyCount: number } {
  const game = ctx.store.db
    .select({ movesKey: games.movesKey, sanMoves: games.sanMoves, movesSource: games.movesSource })
    .from(games)
    .where(and(eq(games.id, id), eq(games.userId, ctx.user.id)))
    .get();
  if (game) {
    // Only a full stored game has a movesKey; an opening-only line is not a reviewable game.
    const plies = game.movesSource === 'pgn' && game.sanMoves ? game.sanMoves.split(' ').length : 0;
    return { kind: 'game', movesKey: game.movesSource === 'pgn' ? game.movesKey : null, plyCount: plies };
  }
  const study = ownedStudyMainline(ctx, id);
  if (study) return { kind: 'study', movesKey: study.movesKey, plyCount: study.plyCount };
  throw new ApiError(404, SOURCE_GAME_NOT_FOUND);
}

/**
 * Saves a position: a typed FEN checked against the position rules, or a ply of an owned game
 * whose FEN and evaluation are copied from the owner's review. Every reference is checked and the
 * 500 cap counted inside the one write transaction, so nothing is stored on a refusal and two
 * simultaneous saves cannot make a 501st.
 */
export function savePosition(ctx: PersonalCtx, input: z.output<typeof SavePositionInput>): Position {
  if (input.ply !== undefined && input.gameId === undefined) throw new ApiError(400, 'ply needs gameId: the game it belongs to');
  if (input.gameId !== undefined && input.ply === undefined) throw new ApiError(400, 'gameId needs ply: the position after that ply (0 = start)');
  let typedFen: string | null = null;
  if (input.gameId === undefined) {
    if (input.fen === undefined) throw new ApiError(400, 'fen is required (or gameId and ply to copy a position from your review)');
    const checked = checkFen(input.fen);
    if (!checked.ok) throw new ApiError(400, `illegal FEN: ${checked.reason}`);
    typedFen = checked.fen;
  }
  const now = ctx.clock.now().toISOString();
  const row = inTransaction(ctx.store, () => {
    if (input.focusId !== undefined) ownedFocus(ctx, input.focusId);
    let fromGame: Pick<PositionRow, 'fen' | 'sourceKind' | 'sourceId' | 'sourcePly' | 'evalCp' | 'evalMate' | 'bestMoveUci'> | null = null;
    if (input.gameId !== undefined && input.ply !== undefined) {
      const source = ownedSourceGame(ctx, input.gameId);
      if (source.movesKey === null) throw new ApiError(409, 'that game has no moves; attach_pgn first, then request_game_review');
      if (input.ply > source.plyCount) {
        throw new ApiError(400, `ply ${input.ply} is beyond the end of that game (${source.plyCount} plies)`);
      }
      const reviewed = reviewedPosition(ctx, source.movesKey, input.ply);
      if (!reviewed) {
        const how = source.kind === 'game' ? 'request_game_review' : 'request_study_analysis';
        throw new ApiError(409, `that game has no review yet; ${how} first`);
      }
      fromGame = {
        fen: reviewed.fen,
        sourceKind: source.kind,
        sourceId: input.gameId,
        sourcePly: input.ply,
        evalCp: reviewed.evaluation.cp,
        evalMate: reviewed.evaluation.mate,
        bestMoveUci: reviewed.bestMoveUci,
      };
    }
    const held = ctx.store.db.select({ n: count() }).from(savedPositions).where(eq(savedPositions.userId, ctx.user.id)).get()!.n;
    if (held >= MAX_SAVED_POSITIONS) {
      throw new ApiError(409, `at most ${MAX_SAVED_POSITIONS} saved positions; remove_saved_position one first`);
    }
    return ctx.store.db
      .insert(savedPositions)
      .values({
        id: randomUUID(),
        userId: ctx.user.id,
        fen: fromGame?.fen ?? typedFen!,
        label: input.label,
        why: input.why ?? null,
        focusId: input.focusId ?? null,
        sourceKind: fromGame?.sourceKind ?? null,
        sourceId: fromGame?.sourceId ?? null,
        sourcePly: fromGame?.sourcePly ?? null,
        evalCp: fromGame?.evalCp ?? null,
        evalMate: fromGame?.evalMate ?? null,
        bestMoveUci: fromGame?.bestMoveUci ?? null,
        lastQuizzedAt: null,
        lastQuizCorrect: null,
        createdAt: now,
      })
      .returning()
      .get();
  });
  return describePositions(ctx, [row])[0];
}

/** Newest first, 25 a page; a page beyond the last falls back to page 1, as the games list does. */
/**
 * The list filters as placeholders, so one prepared query serves every combination: a null focus
 * or due filter matches every row (an owner holds at most MAX_SAVED_POSITIONS, all on one index range).
 */
const listFilter = and(
  eq(savedPositions.userId, sql.placeholder('userId')),
  sql`(${sql.placeholder('focusId')} IS NULL OR ${savedPositions.focusId} = ${sql.placeholder('focusId')})`,
  sql`(${sql.placeholder('due')} IS NULL OR (${sql.placeholder('due')} = 1 AND ${dueCondition}) OR (${sql.placeholder('due')} = 0 AND ${savedPositions.lastQuizCorrect} = 1))`,
);
const listCountQuery = (db: Store['db']) => db.select({ n: count() }).from(savedPositions).where(listFilter).prepare();
const listPageQuery = (db: Store['db']) =>
  db
    .select()
    .from(savedPositions)
    .where(listFilter)
    .orderBy(desc(savedPositions.createdAt), desc(savedPositions.id))
    .limit(POSITIONS_PAGE_SIZE)
    .offset(sql.placeholder('offset'))
    .prepare();

export function listSavedPositions(ctx: PersonalCtx, input: z.output<typeof ListPositionsInput>) {
  // Kept per version of the owner's coaching data; due-ness is the last result, never the date.
  return memoByOwner(ctx.store, ctx.user.id, `list_saved_positions ${JSON.stringify(input)}`, () => readPositions(ctx, input), 'coaching');
}

function readPositions(ctx: PersonalCtx, input: z.output<typeof ListPositionsInput>) {
  const filter = { userId: ctx.user.id, focusId: input.focusId ?? null, due: input.dueForQuiz === undefined ? null : input.dueForQuiz ? 1 : 0 };
  const total = preparedOnce(ctx.store, listCountQuery).get(filter)!.n;
  const pageCount = Math.max(1, Math.ceil(total / POSITIONS_PAGE_SIZE));
  const page = input.page > pageCount ? 1 : input.page;
  const rows = preparedOnce(ctx.store, listPageQuery).all({ ...filter, offset: (page - 1) * POSITIONS_PAGE_SIZE });
  return { positions: describePositions(ctx, rows), page, pageCount, total };
}

const summaryQuery = (db: Store['db']) =>
  db
    .select({ n: count(), due: sql<number>`coalesce(sum(CASE WHEN ${dueCondition} THEN 1 ELSE 0 END), 0)` })
    .from(savedPositions)
    .where(eq(savedPositions.userId, sql.placeholder('userId')))
    .prepare();

export function positionSummary(ctx: PersonalCtx) {
  const { n, due } = preparedOnce(ctx.store, summaryQuery).get({ userId: ctx.user.id })!;
  return { count: n, dueForQuiz: Number(due), limit: MAX_SAVED_POSITIONS };
}

/** Deletes one owned position and (by cascade) its quiz history; log entries naming it stay. */
export function removeSavedPosition(ctx: PersonalCtx, id: string) {
  return inTransaction(ctx.store, () => {
    const res = ctx.store.db
      .delete(savedPositions)
      .where(and(eq(savedPositions.id, id), eq(savedPositions.userId, ctx.user.id)))
      .run();
    // Idempotent, as the tool is declared (issue 45): a second removal (or an id never the owner's: the same answer) changes nothing.
    if (res.changes === 0) return { removed: false, id };
    return { removed: true, id };
  });
}
