import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, lt, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { z } from 'zod';
import { LOG_PAGE_SIZE, type AddEntryInput, type Entry } from '../../../schemas/coaching.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import { inTransaction, type Store } from '../../store/db.js';
import { jsonList, preparedOnce } from '../../store/prepared.js';
import { coachingEntries, positionQuizzes, savedPositions } from '../../store/schema/index.js';
import { ownedFocus } from './focus.js';
import { ownedPosition } from './positions.js';

export const ASSIGNMENT_NOT_FOUND = 'no owned assignment with that id; get_coaching_state lists open assignments';
/** Open assignments shown by the state, oldest first. */
export const OPEN_ASSIGNMENTS_MAX = 100;

type EntryRow = typeof coachingEntries.$inferSelect;
type Status = NonNullable<EntryRow['status']>;

/**
 * The current status of each named assignment. The log is append-only, so an assignment's status
 * is the status of the latest entry that names it, or its own starting status when none does.
 */
const closersQuery = (db: Store['db']) =>
  db
    .select({ assignmentId: coachingEntries.assignmentId, status: coachingEntries.status })
    .from(coachingEntries)
    .where(and(eq(coachingEntries.userId, sql.placeholder('userId')), sql`${coachingEntries.assignmentId} IN ${jsonList('ids')}`))
    .orderBy(asc(coachingEntries.seq))
    .prepare();

function currentStatuses(ctx: PersonalCtx, assignments: EntryRow[]): Map<string, Status | null> {
  const out = new Map(assignments.map((a) => [a.id, a.status]));
  if (assignments.length === 0) return out;
  const closers = preparedOnce(ctx.store, closersQuery).all({ userId: ctx.user.id, ids: JSON.stringify([...out.keys()]) });
  for (const c of closers) out.set(c.assignmentId!, c.status);
  return out;
}

export function describeEntries(ctx: PersonalCtx, rows: EntryRow[]): Entry[] {
  const statuses = currentStatuses(
    ctx,
    rows.filter((r) => r.kind === 'assignment'),
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    body: r.body,
    status: r.kind === 'assignment' ? (statuses.get(r.id) ?? r.status) : r.status,
    assignmentId: r.assignmentId,
    positionId: r.positionId,
    correct: r.correct,
    focusId: r.focusId,
    createdAt: r.createdAt,
  }));
}

/** Input rules that need no store: which fields go with which kind. */
function checkShape(input: z.output<typeof AddEntryInput>): void {
  if (input.assignmentId !== undefined) {
    if (input.kind === 'assignment') throw new ApiError(400, 'assignmentId closes an assignment: use kind result, note, reflection or session');
    if (input.status !== 'completed' && input.status !== 'skipped') {
      throw new ApiError(400, 'assignmentId needs status: completed or skipped');
    }
  } else if (input.status !== undefined && input.kind !== 'assignment') {
    throw new ApiError(400, 'status applies to a new assignment, or with assignmentId to close one');
  }
  if (input.positionId !== undefined || input.correct !== undefined) {
    if (input.kind !== 'result') throw new ApiError(400, 'positionId and correct record a quiz: use kind result');
    if (input.positionId === undefined || input.correct === undefined) {
      throw new ApiError(400, 'a quiz result needs both positionId and correct');
    }
  }
}

/**
 * Appends one entry. Every reference (focus, assignment, position) is checked as the owner's
 * inside the write transaction before anything is stored; closing an assignment needs it open;
 * a quiz result stamps the position and appends to its history in the same transaction.
 */
export function addCoachingEntry(ctx: PersonalCtx, input: z.output<typeof AddEntryInput>): Entry {
  checkShape(input);
  const now = ctx.clock.now().toISOString();
  const row = inTransaction(ctx.store, () => {
    if (input.focusId !== undefined) ownedFocus(ctx, input.focusId);
    if (input.assignmentId !== undefined) {
      const assignment = ctx.store.db
        .select()
        .from(coachingEntries)
        .where(
          and(
            eq(coachingEntries.id, input.assignmentId),
            eq(coachingEntries.userId, ctx.user.id),
            eq(coachingEntries.kind, 'assignment'),
          ),
        )
        .get();
      if (!assignment) throw new ApiError(404, ASSIGNMENT_NOT_FOUND);
      const status = currentStatuses(ctx, [assignment]).get(assignment.id);
      if (status !== 'open') throw new ApiError(409, `that assignment is already ${status}; only an open assignment can be closed`);
    }
    if (input.positionId !== undefined) ownedPosition(ctx, input.positionId);
    const entry = ctx.store.db
      .insert(coachingEntries)
      .values({
        id: randomUUID(),
        userId: ctx.user.id,
        kind: input.kind,
        body: input.body,
        status: input.kind === 'assignment' && input.assignmentId === undefined ? (input.status ?? 'open') : (input.status ?? null),
        assignmentId: input.assignmentId ?? null,
        positionId: input.positionId ?? null,
        correct: input.correct ?? null,
        focusId: input.focusId ?? null,
        createdAt: now,
      })
      .returning()
      .get();
    if (input.positionId !== undefined && input.correct !== undefined) {
      ctx.store.db
        .insert(positionQuizzes)
        .values({ positionId: input.positionId, entryId: entry.id, correct: input.correct, quizzedAt: now })
        .run();
      ctx.store.db
        .update(savedPositions)
        .set({ lastQuizzedAt: now, lastQuizCorrect: input.correct })
        .where(and(eq(savedPositions.id, input.positionId), eq(savedPositions.userId, ctx.user.id)))
        .run();
    }
    return entry;
  });
  return describeEntries(ctx, [row])[0];
}

/** One page of the log, newest first, before `beforeSeq` when paging back. */
const entryPageQuery = (db: Store['db']) =>
  db
    .select()
    .from(coachingEntries)
    .where(and(eq(coachingEntries.userId, sql.placeholder('userId')), lt(coachingEntries.seq, sql.placeholder('before'))))
    .orderBy(desc(coachingEntries.seq))
    .limit(LOG_PAGE_SIZE + 1)
    .prepare();

export function entryPage(ctx: PersonalCtx, beforeSeq: number | null): { entries: Entry[]; nextSeq: number | null } {
  // No cursor reads from the newest entry: every seq is below the largest safe integer.
  const rows = preparedOnce(ctx.store, entryPageQuery).all({ userId: ctx.user.id, before: beforeSeq ?? Number.MAX_SAFE_INTEGER });
  const more = rows.length > LOG_PAGE_SIZE;
  const page = rows.slice(0, LOG_PAGE_SIZE);
  return { entries: describeEntries(ctx, page), nextSeq: more ? page[page.length - 1].seq : null };
}

/** Assignments with no closing entry and an open starting status, oldest first. */
const closer = alias(coachingEntries, 'closer');
const openAssignmentsQuery = (db: Store['db']) =>
  db
    .select()
    .from(coachingEntries)
    .where(
      and(
        eq(coachingEntries.userId, sql.placeholder('userId')),
        eq(coachingEntries.kind, 'assignment'),
        eq(coachingEntries.status, 'open'),
        notExists(
          db
            .select({ one: sql`1` })
            .from(closer)
            .where(and(eq(closer.userId, sql.placeholder('userId')), eq(closer.assignmentId, coachingEntries.id))),
        ),
      ),
    )
    .orderBy(asc(coachingEntries.seq))
    .limit(OPEN_ASSIGNMENTS_MAX)
    .prepare();

export function openAssignments(ctx: PersonalCtx): Entry[] {
  return describeEntries(ctx, preparedOnce(ctx.store, openAssignmentsQuery).all({ userId: ctx.user.id }));
}

const lastSessionQuery = (db: Store['db']) =>
  db
    .select({ at: coachingEntries.createdAt })
    .from(coachingEntries)
    .where(and(eq(coachingEntries.userId, sql.placeholder('userId')), eq(coachingEntries.kind, 'session')))
    .orderBy(desc(coachingEntries.seq))
    .limit(1)
    .prepare();

export function lastSessionAt(ctx: PersonalCtx): string | null {
  return preparedOnce(ctx.store, lastSessionQuery).get({ userId: ctx.user.id })?.at ?? null;
}

