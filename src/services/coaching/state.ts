import type { z } from 'zod';
import type { CoachingState } from '../../../schemas/coaching.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import { entryPage, lastSessionAt, openAssignments } from './entries.js';
import { activeFocuses, recentlyResolvedFocuses, toFocus } from './focus.js';
import { positionSummary } from './positions.js';
import { memoByOwner } from '../common/index.js';

/** The cursor is the log position to read before, written so agents treat it as opaque. */
const CURSOR = /^e(\d{1,15})$/;
const encodeCursor = (seq: number) => `e${seq}`;

/** Everything agreed in coaching, in one read. */
export function getCoachingState(ctx: PersonalCtx, cursor: string | undefined): z.input<typeof CoachingState> {
  let before: number | null = null;
  if (cursor !== undefined) {
    const m = CURSOR.exec(cursor);
    if (!m) throw new ApiError(400, 'cursor: not a cursor from get_coaching_state; omit it for the newest entries');
    before = Number(m[1]);
  }
  // Kept per version of the owner's coaching data (triggers, src/store/ownerStamps.ts): nothing here reads the clock.
  return memoByOwner(ctx.store, ctx.user.id, `get_coaching_state ${before ?? ''}`, () => readState(ctx, before), 'coaching');
}

/** One read transaction: the parts of the state agree with each other. */
function readState(ctx: PersonalCtx, before: number | null): z.input<typeof CoachingState> {
  return ctx.store.sqlite.transaction(() => {
  const { entries, nextSeq } = entryPage(ctx, before);
  return {
    focuses: { active: activeFocuses(ctx).map(toFocus), recentlyResolved: recentlyResolvedFocuses(ctx).map(toFocus) },
    entries,
    nextCursor: nextSeq === null ? null : encodeCursor(nextSeq),
    openAssignments: openAssignments(ctx),
    positions: positionSummary(ctx),
    lastSessionAt: lastSessionAt(ctx),
  };
  })();
}
