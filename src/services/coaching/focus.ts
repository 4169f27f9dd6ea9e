import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { MAX_ACTIVE_FOCUSES, RECENT_RESOLVED_FOCUSES, type Focus, type SetFocusInput } from '../../../schemas/coaching.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import { inTransaction, type Store } from '../../store/db.js';
import { preparedOnce } from '../../store/prepared.js';
import { coachingFocuses } from '../../store/schema/index.js';

export const FOCUS_NOT_FOUND = 'no owned focus with that id; get_coaching_state lists your focuses';

type FocusRow = typeof coachingFocuses.$inferSelect;

export function toFocus(r: FocusRow): Focus {
  return { id: r.id, title: r.title, status: r.status, createdAt: r.createdAt, resolvedAt: r.resolvedAt };
}

/** The owner's focus with that id (active or resolved), or the same 404 for unknown and foreign ids. */
export function ownedFocus(ctx: PersonalCtx, id: string): FocusRow {
  const row = ctx.store.db
    .select()
    .from(coachingFocuses)
    .where(and(eq(coachingFocuses.id, id), eq(coachingFocuses.userId, ctx.user.id)))
    .get();
  if (!row) throw new ApiError(404, FOCUS_NOT_FOUND);
  return row;
}

const activeQuery = (db: Store['db']) =>
  db
    .select()
    .from(coachingFocuses)
    .where(and(eq(coachingFocuses.userId, sql.placeholder('userId')), eq(coachingFocuses.status, 'active')))
    .orderBy(asc(coachingFocuses.createdAt), asc(coachingFocuses.id))
    .prepare();

export function activeFocuses(ctx: PersonalCtx): FocusRow[] {
  return preparedOnce(ctx.store, activeQuery).all({ userId: ctx.user.id });
}

const resolvedQuery = (db: Store['db']) =>
  db
    .select()
    .from(coachingFocuses)
    .where(and(eq(coachingFocuses.userId, sql.placeholder('userId')), eq(coachingFocuses.status, 'resolved')))
    .orderBy(desc(coachingFocuses.resolvedAt), desc(coachingFocuses.id))
    .limit(RECENT_RESOLVED_FOCUSES)
    .prepare();

export function recentlyResolvedFocuses(ctx: PersonalCtx): FocusRow[] {
  return preparedOnce(ctx.store, resolvedQuery).all({ userId: ctx.user.id });
}

/**
 * The focus state table: create (fewer than 3 active), retitle an active focus, resolve one.
 * The active count is read inside the write transaction (BEGIN IMMEDIATE), so two simultaneous
 * creates are serialised and can never leave a 4th active focus.
 */
export function setTrainingFocus(ctx: PersonalCtx, input: z.output<typeof SetFocusInput>): Focus {
  const now = ctx.clock.now().toISOString();
  if (input.focusId === undefined) {
    if (input.resolve) throw new ApiError(400, 'resolve needs focusId: the focus to resolve');
    if (input.title === undefined) throw new ApiError(400, 'title is required to create a focus (or pass focusId to change one)');
    const title = input.title;
    return inTransaction(ctx.store, () => {
      const active = activeFocuses(ctx);
      if (active.length >= MAX_ACTIVE_FOCUSES) {
        const names = active.map((f) => `"${f.title}" (${f.id})`).join(', ');
        throw new ApiError(409, `at most ${MAX_ACTIVE_FOCUSES} focuses can be active; resolve one first. Active: ${names}`);
      }
      const row = ctx.store.db
        .insert(coachingFocuses)
        .values({ id: randomUUID(), userId: ctx.user.id, title, status: 'active', createdAt: now, resolvedAt: null })
        .returning()
        .get();
      return toFocus(row);
    });
  }
  const focusId = input.focusId;
  if (input.title === undefined && input.resolve !== true) {
    throw new ApiError(400, 'nothing to change: pass title to retitle or resolve: true to resolve');
  }
  return inTransaction(ctx.store, () => {
    const row = ownedFocus(ctx, focusId);
    if (row.status === 'resolved') {
      if (input.title !== undefined) throw new ApiError(409, 'that focus is resolved; only an active focus can be retitled');
      return toFocus(row); // resolving a resolved focus changes nothing
    }
    const patch: Partial<FocusRow> = {};
    if (input.title !== undefined) patch.title = input.title;
    if (input.resolve === true) Object.assign(patch, { status: 'resolved', resolvedAt: now });
    const updated = ctx.store.db
      .update(coachingFocuses)
      .set(patch)
      .where(and(eq(coachingFocuses.id, focusId), eq(coachingFocuses.userId, ctx.user.id)))
      .returning()
      .get();
    return toFocus(updated);
  });
}
