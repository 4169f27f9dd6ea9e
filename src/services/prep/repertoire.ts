import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Repertoire, RepertoireInput } from '../../../schemas/prep.js';
import { PgnError } from '../../chess/pgn.js';
import { repertoireFromPgn, repertoireStepsFromLines, repertoireStepsFromPgn, type RepertoireBook } from '../../chess/repertoire.js';
import type { Colour } from '../../chess/types.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import { dashboardUrl, inSlices, memoByOwner } from '../common/index.js';
import { pgns, repertoires, studyGames } from '../../store/schema/index.js';

type Row = typeof repertoires.$inferSelect;

/**
 * Declaring a repertoire is the player's act, on the dashboard (no tool declares one, issue 38): the
 * answer says where, so an agent asks the player rather than attempting a call it cannot make.
 */
export const noRepertoire = (ctx: PersonalCtx, colour: Colour) =>
  new ApiError(
    404,
    `no ${colour} repertoire declared; ask the player to declare one on the dashboard's Prep page, ${dashboardUrl(ctx, '/prep')} (from a PGN with variations, typed-in lines or a study game)`,
  );

function view(row: Row, book: RepertoireBook): z.infer<typeof Repertoire> {
  return {
    colour: row.colour,
    source: row.source,
    studyGameId: row.studyGameId,
    updatedAt: row.updatedAt,
    positions: Object.keys(book.positions).length,
    lines: book.lines,
    maxPly: book.maxPly,
    pgn: row.pgn,
  };
}

function rowOf(ctx: PersonalCtx, colour: Colour): Row | null {
  return ctx.store.db.select().from(repertoires).where(and(eq(repertoires.userId, ctx.user.id), eq(repertoires.colour, colour))).get() ?? null;
}

/**
 * The owner's repertoire of `colour` with its book (the positions stored when it was declared); 404 when none.
 * One declared from a study game follows that game's current text (issue 37, item 7: a re-upload with new
 * variations replaces it): when the text differs from the one declared, its positions are worked out from the
 * current text (a text that no longer makes a repertoire leaves the declared one). Kept per version of the owner's
 * repertoires and study games (ownerMemo), so the book is parsed or worked out once per change.
 */
export function loadRepertoire(ctx: PersonalCtx, colour: Colour): { repertoire: z.infer<typeof Repertoire>; book: RepertoireBook } {
  return memoByOwner(
    ctx.store,
    ctx.user.id,
    `prep:repertoire:${colour}`,
    () => {
      const row = rowOf(ctx, colour);
      if (!row) throw noRepertoire(ctx, colour);
      const current = row.source === 'study' && row.studyGameId ? studyPgn(ctx, row.studyGameId) : null;
      if (current !== null && current !== row.pgn) {
        try {
          const book = repertoireFromPgn(current);
          return { repertoire: view({ ...row, pgn: current }, book), book };
        } catch (err) {
          if (!(err instanceof PgnError)) throw err;
        }
      }
      const book = JSON.parse(row.positions) as RepertoireBook;
      return { repertoire: view(row, book), book };
    },
    ['prep', 'study'],
  );
}

/** The current PGN text of one of the owner's study games (variations kept), or null for any other id. */
function studyPgn(ctx: PersonalCtx, id: string): string | null {
  const row = ctx.store.db
    .select({ text: pgns.text })
    .from(studyGames)
    .innerJoin(pgns, eq(pgns.hash, studyGames.pgnHash))
    .where(and(eq(studyGames.id, id), eq(studyGames.userId, ctx.user.id)))
    .get();
  return row?.text ?? null;
}

/**
 * Declares (or replaces) the owner's repertoire of one colour from a PGN with variations, typed-in lines
 * or a study game. Its positions are worked out once, here (in slices), and stored with it; a PGN that does not
 * replay is a 400 and nothing changes.
 */
export async function declareRepertoire(ctx: PersonalCtx, input: z.infer<typeof RepertoireInput>, opts: { demo?: boolean } = {}): Promise<z.infer<typeof Repertoire>> {
  // demo: the demo store's made-up repertoire (src/demo/prep.ts), marked so the page can say so.
  const source = opts.demo ? 'demo' : input.pgn !== undefined ? 'pgn' : input.lines !== undefined ? 'lines' : 'study';
  const text = input.pgn ?? (input.lines ? input.lines.join('\n') : studyPgn(ctx, input.studyGameId!));
  if (text === null) throw new ApiError(404, 'no study game with that id; list_study_games gives the ids');
  let book: RepertoireBook;
  try {
    // In slices: a 500-line repertoire replays thousands of moves (common/slices.ts).
    book = await inSlices(input.lines ? repertoireStepsFromLines(input.lines) : repertoireStepsFromPgn(text));
  } catch (err) {
    if (err instanceof PgnError) throw new ApiError(400, `repertoire: ${err.message}`);
    throw err;
  }
  const row: Row = {
    userId: ctx.user.id,
    colour: input.colour,
    source,
    studyGameId: input.studyGameId ?? null,
    pgn: text,
    positions: JSON.stringify(book),
    updatedAt: ctx.clock.now().toISOString(),
  };
  ctx.store.sqlite
    .transaction(() => {
      ctx.store.db
        .insert(repertoires)
        .values(row)
        .onConflictDoUpdate({ target: [repertoires.userId, repertoires.colour], set: { source: row.source, studyGameId: row.studyGameId, pgn: row.pgn, positions: row.positions, updatedAt: row.updatedAt } })
        .run();
    })
    .immediate();
  return view(row, book);
}

export function removeRepertoire(ctx: PersonalCtx, colour: Colour): { removed: boolean } {
  const res = ctx.store.sqlite
    .transaction(() => ctx.store.db.delete(repertoires).where(and(eq(repertoires.userId, ctx.user.id), eq(repertoires.colour, colour))).run())
    .immediate();
  return { removed: res.changes > 0 };
}
