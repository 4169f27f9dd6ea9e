import { parsePgn, PgnError } from '../../chess/pgn.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { Store } from '../../store/db.js';
import { fullGameMoves, ownedGame, storedPgnText, type GameRow } from '../games/index.js';
import type { ReviewSubject } from './reviewRequests.js';

/** The review subject of an owned game; 400 telling the caller to attach a PGN when it has no full moves. */
export function gameReviewSubject(ctx: PersonalCtx, id: string): ReviewSubject {
  const row = ownedGame(ctx, id);
  const moves = fullGameMoves(ctx.store, row);
  if (!moves || moves.movesUci.length === 0) {
    const rule = brokenRule(ctx.store, row);
    if (rule) throw new ApiError(400, `this game's stored moves cannot be reviewed: ${rule}. Attach a corrected PGN with attach_pgn, then request the review`);
    throw new ApiError(
      400,
      row.movesSource === 'opening-only'
        ? 'this game has only its opening line stored, not the full moves: attach its PGN with attach_pgn first, then request the review'
        : 'this game has no moves stored: attach its PGN with attach_pgn first, then request the review',
    );
  }
  return { kind: 'game', id: row.id, startFen: moves.startFen, movesUci: moves.movesUci, userColour: row.colour };
}

/**
 * The chess rule a stored PGN breaks (a null move, a start position the rules reject), for games
 * stored before those were refused at upload (src/chess/pgn.ts): such a game can never be reviewed,
 * so the request is refused before any allowance is spent instead of reading as "no moves".
 */
function brokenRule(store: Store, row: GameRow): string | null {
  const text = row.pgnHash ? storedPgnText(store, row.pgnHash) : null;
  if (!text) return null;
  try {
    parsePgn(text);
    return null;
  } catch (err) {
    return err instanceof PgnError && (err.reason === 'null-move' || err.reason === 'illegal-position') ? err.message : null;
  }
}
