import { and, eq } from 'drizzle-orm';
import type { AttachPgnResult } from '../../../schemas/review.js';
import { DEFAULT_POSITION } from 'chess.js';
import { classifyOpening } from '../../chess/openings.js';
import type { ParsedGame } from '../../chess/pgn.js';
import { parseSubmittedPgn } from './pgnInput.js';
import { tagValue } from './imports.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import { games } from '../../store/schema/index.js';
import { ownedGame } from './games.js';
import { movesColumns, storePgn, type GameRow } from './gameWriter.js';


/** Names compared loosely: case, spaces and punctuation vary between a source and a hand-made PGN. */
function norm(name: string | undefined | null): string {
  return (name ?? '').toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]/gu, '');
}

/** Last name first or first name first: "Carlsen, Magnus" and "Magnus Carlsen" are the same player. */
function sameName(a: string | undefined | null, b: string | undefined | null): boolean {
  const na = norm(a);
  const nb = norm(b);
  if (!na || !nb) return false;
  if (na === nb) return true;
  const words = (s: string | undefined | null) => new Set((s ?? '').toLowerCase().split(/[\s,]+/).map(norm).filter(Boolean));
  const wa = words(a);
  const wb = words(b);
  return wa.size > 1 && wa.size === wb.size && [...wa].every((w) => wb.has(w));
}

const RESULT_FOR_WHITE: Record<string, 'win' | 'draw' | 'loss'> = { '1-0': 'win', '0-1': 'loss', '1/2-1/2': 'draw' };

/** Why a PGN cannot be this game's, or null when nothing contradicts it. */
export function inconsistency(row: GameRow, parsed: ParsedGame, ownerNames: string[]): string | null {
  const white = parsed.headers.White;
  const black = parsed.headers.Black;
  const ownerSide = row.colour;
  const otherSide = ownerSide === 'white' ? 'black' : 'white';
  const onOwnerSide = ownerSide === 'white' ? white : black;
  const onOtherSide = ownerSide === 'white' ? black : white;
  // The owner's colour, where the names say it: the opponent must not sit on the owner's side.
  if (sameName(onOwnerSide, row.opponent) && !sameName(onOtherSide, row.opponent)) {
    return `the PGN has ${row.opponent} (this game's opponent) as ${ownerSide === 'white' ? 'White' : 'Black'}, but you played ${ownerSide} in this game`;
  }
  if (ownerNames.some((n) => sameName(onOtherSide, n)) && !ownerNames.some((n) => sameName(onOwnerSide, n))) {
    return `the PGN has you as ${otherSide === 'white' ? 'White' : 'Black'}, but you played ${ownerSide} in this game`;
  }
  // The result, where the PGN states one.
  const whiteResult = RESULT_FOR_WHITE[parsed.result];
  if (whiteResult) {
    const ownerResult = ownerSide === 'white' ? whiteResult : whiteResult === 'win' ? 'loss' : whiteResult === 'loss' ? 'win' : 'draw';
    if (ownerResult !== row.result) {
      return `the PGN's result ${parsed.result} means a ${ownerResult} for ${ownerSide}, but this game is recorded as a ${row.result}`;
    }
  }
  // The moves already known (the recorded opening line, or moves a source supplied) must open the PGN.
  const known = (row.sanMoves ?? '').split(' ').filter(Boolean);
  if (known.length > 0) {
    const san = parsed.plies.map((p) => p.san);
    if (san.length < known.length) {
      return `the PGN has ${san.length} move(s), fewer than the ${known.length} already recorded for this game (${known.slice(0, 12).join(' ')}${known.length > 12 ? ' …' : ''})`;
    }
    const at = known.findIndex((m, i) => san[i] !== m);
    if (at >= 0) {
      return `the PGN's ply ${at + 1} is ${san[at]}, but this game's recorded line has ${known[at]} there (${known.slice(0, Math.min(known.length, at + 3)).join(' ')})`;
    }
  }
  // An unfinished result. Every stored game is finished (a source records only finished games), and an attached
  // PGN is kept for good: a PGN whose result is * (unfinished, cut short, or the result left out) could be
  // a truncated copy, so it is refused rather than attached with moves missing (issue 38).
  if (parsed.result === '*') {
    return `the PGN's result is * (unfinished, or its result left out), but this game is finished: a ${row.result} for ${ownerSide}; send the whole game, ending with its result (1-0, 0-1 or 1/2-1/2)`;
  }
  return null;
}

/**
 * Attaches a PGN to an owned game (spec 4.2, state table "Game PGN"). Only the attachment pointer and the
 * columns derived from the moves change (the opening too, when the row has none). The write is a compare-and-set on the row's `version`, so a
 * concurrent change between the read and the write answers 409 and stores nothing.
 * `beforeWrite` exists for tests that need a change to happen in exactly that gap.
 */
export function attachPgn(ctx: PersonalCtx, id: string, pgn: string, hooks: { beforeWrite?: () => void } = {}): AttachPgnResult {
  const row = ownedGame(ctx, id);
  if (row.pgnHash) {
    return {
      attached: true,
      id: row.id,
      refId: row.pgnHash,
      alreadyAttached: true,
      note: 'this game already has a PGN attached; it was kept and the text sent was not stored. request_game_review reviews it',
    };
  }
  const parsed = parseSubmittedPgn(pgn);
  const ownerNames = [ctx.user.displayName, ctx.user.usernameSiteA, ctx.user.usernameSiteB].filter((n): n is string => Boolean(n));
  const why = inconsistency(row, parsed, ownerNames);
  if (why) throw new ApiError(400, `the PGN does not match this game: ${why}`);

  // A game stored without its opening (an ECF result, a game entered by hand) takes it from the PGN: its
  // ECO and Opening tags, else the opening table on its moves, as an import names one (issue 45: a 40-ply
  // PGN left eco and opening empty). A name the row has already, from its source, is kept. Named before
  // the write lock: the first call loads the opening table.
  const named = row.eco && row.opening ? null : parsed.startFen === DEFAULT_POSITION ? classifyOpening(parsed.plies.map((p) => p.san)) : null;
  const eco = row.eco ?? tagValue(parsed.headers.ECO) ?? named?.eco ?? null;
  const opening = row.opening ?? tagValue(parsed.headers.Opening) ?? named?.name ?? null;

  hooks.beforeWrite?.();
  const now = ctx.clock.now().toISOString();
  const refId = ctx.store.sqlite
    .transaction(() => {
      const hash = storePgn(ctx.store, pgn, now);
      const cols = movesColumns(parsed, hash);
      const res = ctx.store.db
        .update(games)
        .set({ ...cols, clocks: cols.clocks ?? row.clocks, eco, opening, version: row.version + 1 })
        .where(and(eq(games.id, row.id), eq(games.userId, ctx.user.id), eq(games.version, row.version)))
        .run();
      if (res.changes === 0) {
        throw new ApiError(409, 'the game changed while the PGN was being attached (another attachment or update); fetch it again with get_game before retrying');
      }
      return hash;
    })
    .immediate();
  return {
    attached: true,
    id: row.id,
    refId,
    alreadyAttached: false,
    note: `attached: ${parsed.plies.length} plies stored. No engine work was started; call request_game_review to review it`,
  };
}
