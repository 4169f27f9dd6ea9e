import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { DeleteStudyResult, StudyGame, UploadStudyResult } from '../../../schemas/study.js';
import { STUDY_LIST_MAX } from '../../../schemas/study.js';
import type { ReviewResponse } from '../../../schemas/review.js';
import type { z } from 'zod';
import { classifyOpening } from '../../chess/openings.js';
import { fullMoves, movesKey, sha256, START_FEN, type ParsedGame } from '../../chess/pgn.js';
import { parseSubmittedPgn } from '../games/index.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError, type Reply } from '../../errors.js';
import { inTransaction, type Store } from '../../store/db.js';
import { jsonList, preparedOnce } from '../../store/prepared.js';
import { reviewJobs, studyGames, studyNotes } from '../../store/schema/index.js';
import { memoByOwner } from '../common/index.js';
import { ownerReviewsOf } from '../review/index.js';
import { storePgn } from '../games/index.js';
import { requestReview } from '../review/index.js';

export const STUDY_NOT_FOUND = 'no owned study game with that id; call list_study_games for ids';

type StudyRow = typeof studyGames.$inferSelect;

/** Per-ply notes carried by a PGN: ply 0 is the comment before the first move. */
function notesOf(parsed: ParsedGame): Array<{ ply: number; text: string }> {
  const notes = parsed.preface ? [{ ply: 0, text: parsed.preface }] : [];
  for (const p of parsed.plies) if (p.comment) notes.push({ ply: p.ply, text: p.comment });
  return notes;
}

function openingOf(parsed: ParsedGame): { eco: string | null; name: string } | null {
  if (parsed.startFen === START_FEN) {
    const hit = classifyOpening(parsed.plies.map((p) => p.san));
    if (hit) return { eco: hit.eco, name: hit.name };
  }
  const name = parsed.headers.Opening ?? null;
  return name ? { eco: parsed.headers.ECO ?? null, name } : null;
}

/** A header value that says something (PGN standard 8.1.1: "?" and "????.??.??" mark a value not known). */
const known = (v: string | undefined): v is string => v !== undefined && v.trim() !== '' && !/^[?.\-]*$/.test(v.trim());

/**
 * The headers a duplicate upload leaves the stored game with (issue 45: an upload of the Opera game's
 * moves under the uploader's own headers silently renamed Morphy's game): the stored game keeps every
 * header it knows; the upload fills only the ones it did not know. `kept` names the upload's headers
 * that said something else and were not taken.
 */
export function mergeStudyHeaders(stored: Record<string, string>, upload: Record<string, string>): { headers: Record<string, string>; kept: string[] } {
  const headers = { ...stored };
  const kept: string[] = [];
  for (const [tag, value] of Object.entries(upload)) {
    if (!known(headers[tag])) {
      if (known(value) || headers[tag] === undefined) headers[tag] = value;
    } else if (known(value) && value !== headers[tag]) kept.push(tag);
  }
  return { headers, kept };
}

/** A PGN's header section as tag pairs, values escaped (PGN standard 7: backslash before " and \). */
function headerSection(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([tag, value]) => `[${tag} "${value.replace(/[\\"]/g, (c) => `\\${c}`)}"]`)
    .join('\n');
}

/** The PGN text with its header section replaced by these headers (the movetext, comments and variations untouched). */
function withHeaders(pgn: string, headers: Record<string, string>): string {
  // Leading tag pairs, a value's escaped quotes and brackets included (PGN standard 8.1.1).
  const movetext = pgn.replace(/^\uFEFF?(?:\s*\[\s*[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\s*\])*\s*/, '');
  return `${headerSection(headers)}\n\n${movetext}`;
}

/** The note a duplicate upload answers with: what was kept and what was taken, in words. */
function duplicateNote(stored: Record<string, string>, kept: string[], textUpdated: boolean, notesAdded: number): string {
  const name = [stored.White, stored.Black].filter(known).join(' – ') || 'the stored game';
  return [
    `these moves are already in the collection as ${name}${known(stored.Date) ? ` (${stored.Date})` : ''}`,
    kept.length ? `it keeps its headers (this upload's ${kept.join(', ')} differ and were not taken; delete_study_game it and upload again to store it under new headers)` : 'its headers are kept',
    textUpdated ? "this upload's variations and comments replace its text" : 'its text is unchanged',
    `${notesAdded} note${notesAdded === 1 ? '' : 's'} added (a ply with a note keeps it)`,
  ].join('; ');
}

/**
 * The study state table: a new mainline is stored as a new row; the same mainline (any headers,
 * comments, clocks or variations) returns the existing row, keeps its analysis and its headers (the
 * upload fills only headers it did not know), takes the upload's movetext when it differs (the upload
 * allowance is spent then), its comments fill only plies that have no note yet, and `note` says so. One transaction; the (user, movesKey) unique index backs it up.
 * The upload allowance is spent only when something is stored.
 */
export function uploadStudyGame(ctx: PersonalCtx, pgn: string): z.input<typeof UploadStudyResult> {
  const parsed = parseSubmittedPgn(pgn);
  const uci = parsed.plies.map((p) => p.uci);
  const key = movesKey(parsed.startFen, uci);
  const notes = notesOf(parsed);
  // Named before the write lock is taken: the first call loads the opening table, which is slow.
  const opening = openingOf(parsed);
  const now = ctx.clock.now().toISOString();
  const userId = ctx.user.id;
  const { row, duplicate, notesAdded, note } = inTransaction(ctx.store, () => {
    const existing = ctx.store.db
      .select()
      .from(studyGames)
      .where(and(eq(studyGames.userId, userId), eq(studyGames.movesKey, key)))
      .get();
    let target = existing;
    // The same mainline with other text (new variations, comments or headers): the row takes the new text, so
    // what reads the study game's PGN (a repertoire declared from it) reads what was uploaded last (issue 37, item 7).
    // The stored game keeps its headers (and its result); the upload only fills what they did not know.
    let textUpdated = false;
    let kept: string[] = [];
    if (target) {
      const merged = mergeStudyHeaders(JSON.parse(target.headers) as Record<string, string>, parsed.headers);
      kept = merged.kept;
      const text = sha256(pgn) === target.pgnHash ? pgn : withHeaders(pgn, merged.headers);
      if (sha256(text) !== target.pgnHash) {
        target = ctx.store.db
          .update(studyGames)
          .set({ pgnHash: storePgn(ctx.store, text, now), headers: JSON.stringify(merged.headers) })
          .where(eq(studyGames.id, target.id))
          .returning()
          .get()!;
        textUpdated = true;
      }
    }
    if (!target) {
      target = ctx.store.db
        .insert(studyGames)
        .values({
          id: randomUUID(),
          userId,
          movesKey: key,
          startFen: parsed.startFen,
          sanMoves: parsed.plies.map((p) => p.san).join(' '),
          uciMoves: uci.join(' '),
          plyCount: parsed.plies.length,
          headers: JSON.stringify(parsed.headers),
          result: parsed.result,
          eco: opening?.eco ?? null,
          opening: opening?.name ?? null,
          pgnHash: storePgn(ctx.store, pgn, now),
          createdAt: now,
        })
        .returning()
        .get();
    }
    let added = 0;
    for (const note of notes) {
      added += ctx.store.db
        .insert(studyNotes)
        .values({ studyGameId: target.id, ply: note.ply, text: note.text, createdAt: now })
        .onConflictDoNothing()
        .run().changes;
    }
    // The allowance pays for stored changes only (issue 30): a PGN refused above, or an exact duplicate
    // that adds no note, spends nothing. Charged inside this transaction: a 429 (or 503) undoes the write.
    if (!existing || added > 0 || textUpdated) ctx.limiter.take('studyUpload', userId);
    const note = existing ? duplicateNote(JSON.parse(existing.headers) as Record<string, string>, kept, textUpdated, added) : null;
    return { row: target, duplicate: existing !== undefined, notesAdded: added, note };
  });
  return { ...describeRows(ctx, [row])[0], duplicate, notesAdded, note };
}

/** The collection, newest first, up to 200 rows, with review state and note counts. */
const studyListQuery = (db: Store['db']) =>
  db
    .select()
    .from(studyGames)
    .where(eq(studyGames.userId, sql.placeholder('userId')))
    .orderBy(desc(studyGames.createdAt), desc(studyGames.id))
    .limit(STUDY_LIST_MAX)
    .prepare();
const studyCountQuery = (db: Store['db']) => db.select({ n: count() }).from(studyGames).where(eq(studyGames.userId, sql.placeholder('userId'))).prepare();
const noteCountsQuery = (db: Store['db']) =>
  db
    .select({ id: studyNotes.studyGameId, n: count() })
    .from(studyNotes)
    .where(sql`${studyNotes.studyGameId} IN ${jsonList('ids')}`)
    .groupBy(studyNotes.studyGameId)
    .prepare();
const studyJobsQuery = (db: Store['db']) =>
  db
    .select({ key: reviewJobs.movesKey, status: reviewJobs.status })
    .from(reviewJobs)
    .where(and(eq(reviewJobs.userId, sql.placeholder('userId')), sql`${reviewJobs.movesKey} IN ${jsonList('keys')}`))
    .orderBy(reviewJobs.createdAt)
    .prepare();

/**
 * Kept per owner study version (src/store/ownerStamps.ts): any change to the rows, their notes, the
 * owner's review jobs or reviews, in any process, makes the next read build the list again.
 */
export function listStudyGames(ctx: PersonalCtx): { games: StudyGame[]; total: number } {
  return memoByOwner(
    ctx.store,
    ctx.user.id,
    'list_study_games',
    () => {
      const rows = preparedOnce(ctx.store, studyListQuery).all({ userId: ctx.user.id });
      const total = preparedOnce(ctx.store, studyCountQuery).get({ userId: ctx.user.id })!.n;
      return { games: describeRows(ctx, rows), total };
    },
    'study',
  );
}

/** Rows as the API shows them: one query each for notes, analyses and queue jobs, whatever the row count. */
export function describeRows(ctx: PersonalCtx, rows: StudyRow[]): StudyGame[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const keys = [...new Set(rows.map((r) => r.movesKey))];
  const noteCounts = new Map(
    preparedOnce(ctx.store, noteCountsQuery)
      .all({ ids: JSON.stringify(ids) })
      .map((r) => [r.id, r.n]),
  );
  const analysed = ownerReviewsOf(ctx.store, ctx.user.id, keys);
  // The latest job of this user for each mainline, whichever subject queued it: the analysis is shared.
  const jobs = new Map<string, (typeof reviewJobs.$inferSelect)['status']>();
  for (const j of preparedOnce(ctx.store, studyJobsQuery).all({ userId: ctx.user.id, keys: JSON.stringify(keys) })) {
    jobs.set(j.key, j.status);
  }
  return rows.map((r) => {
    const headers = JSON.parse(r.headers) as Record<string, string>;
    const a = analysed.get(r.movesKey);
    const job = jobs.get(r.movesKey);
    const review: StudyGame['review'] = a
      ? { status: 'complete', accuracyWhite: a.derivation.accuracyWhite, accuracyBlack: a.derivation.accuracyBlack }
      : { status: job && job !== 'complete' ? job : 'none', accuracyWhite: null, accuracyBlack: null };
    return {
      id: r.id,
      white: headers.White ?? null,
      black: headers.Black ?? null,
      event: headers.Event ?? null,
      date: headers.Date ?? null,
      result: r.result,
      headers,
      startFen: r.startFen,
      movesCount: fullMoves(r.plyCount),
      plyCount: r.plyCount,
      opening: r.opening ? { eco: r.eco, name: r.opening } : null,
      review,
      notesCount: noteCounts.get(r.id) ?? 0,
      createdAt: r.createdAt,
    };
  });
}

function ownedStudyGame(ctx: PersonalCtx, id: string): StudyRow {
  const row = ctx.store.db
    .select()
    .from(studyGames)
    .where(and(eq(studyGames.id, id), eq(studyGames.userId, ctx.user.id)))
    .get();
  if (!row) throw new ApiError(404, STUDY_NOT_FOUND);
  return row;
}

/** Hands an owned study game to the shared review pipeline (which charges the review allowance). */
export async function requestStudyAnalysis(
  ctx: PersonalCtx,
  id: string,
  waitSeconds: number,
): Promise<ReviewResponse | Reply<ReviewResponse>> {
  const row = ownedStudyGame(ctx, id);
  return requestReview(
    ctx,
    { kind: 'study', id: row.id, startFen: row.startFen, movesUci: row.uciMoves.split(' '), userColour: null },
    waitSeconds,
  );
}

/**
 * Removes an owned study row and (by cascade) its notes in one transaction. The owner's review of its
 * moves (their `analyses` row) and the content-addressed PGN text stay: other rows may point at them.
 * Idempotent, as the tool is declared (issue 45): an id with no row of the owner's (deleted already,
 * or never theirs: the same answer, so another owner's id tells nothing) answers deleted: false and
 * changes nothing.
 */
export function deleteStudyGame(ctx: PersonalCtx, id: string): z.input<typeof DeleteStudyResult> {
  return inTransaction(ctx.store, () => {
    const row = ctx.store.db
      .select({ id: studyGames.id })
      .from(studyGames)
      .where(and(eq(studyGames.id, id), eq(studyGames.userId, ctx.user.id)))
      .get();
    if (!row) return { deleted: false, id, notesDeleted: 0 };
    const notesDeleted = ctx.store.db.select({ n: count() }).from(studyNotes).where(eq(studyNotes.studyGameId, row.id)).get()!.n;
    ctx.store.db.delete(studyGames).where(and(eq(studyGames.id, row.id), eq(studyGames.userId, ctx.user.id))).run();
    return { deleted: true, id: row.id, notesDeleted };
  });
}

/** The mainline of an owned study game, for saving a position from it; null when not owned. */
export function ownedStudyMainline(ctx: PersonalCtx, id: string): { movesKey: string; plyCount: number } | null {
  const row = ctx.store.db
    .select({ movesKey: studyGames.movesKey, plyCount: studyGames.plyCount })
    .from(studyGames)
    .where(and(eq(studyGames.id, id), eq(studyGames.userId, ctx.user.id)))
    .get();
  return row ?? null;
}
