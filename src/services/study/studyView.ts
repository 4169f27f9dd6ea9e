import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { StudyGameView } from '../../../schemas/study.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import { pgns, studyGames, studyNotes } from '../../store/schema/index.js';
import { ownerReview } from '../review/index.js';
import { describeRows, STUDY_NOT_FOUND } from './study.js';

/**
 * One owned study game for the dashboard's viewer: its row as list_study_games shows it, the PGN as
 * uploaded, the owner's notes by ply and, once reviewed, the stored review's per-ply figures (read,
 * never recomputed). Another owner's id is the same 404 as an unknown one.
 */
export function studyGameView(ctx: PersonalCtx, id: string): z.input<typeof StudyGameView> {
  const row = ctx.store.db
    .select({ study: studyGames, pgn: pgns.text })
    .from(studyGames)
    .innerJoin(pgns, eq(pgns.hash, studyGames.pgnHash))
    .where(and(eq(studyGames.id, id), eq(studyGames.userId, ctx.user.id)))
    .get();
  if (!row) throw new ApiError(404, STUDY_NOT_FOUND);
  // This one row described as the list describes each (not the whole list searched: it stops at the newest STUDY_LIST_MAX).
  const [game] = describeRows(ctx, [row.study]);
  const notes = ctx.store.db.select({ ply: studyNotes.ply, text: studyNotes.text }).from(studyNotes).where(eq(studyNotes.studyGameId, row.study.id)).orderBy(asc(studyNotes.ply)).all();
  const review = ownerReview(ctx.store, ctx.user.id, row.study.movesKey);
  const plies = review
    ? review.view().plies.map(({ ply: p }) => ({
        ply: p.ply,
        colour: p.colour,
        classification: p.classification,
        evalAfter: p.evalAfter ? { type: p.evalAfter.type, value: p.evalAfter.value } : null,
        isBestMove: p.isBestMove,
        bestMove: !p.isBestMove && p.bestMove ? p.bestMove.san : null,
      }))
    : [];
  return { game, pgn: row.pgn, notes, plies };
}
