import { parsePgn, replaySan, START_FEN } from '../../chess/pgn.js';
import type { Store } from '../../store/db.js';
import type { GameRow } from './gameWriter.js';
import { storedPgnText } from './games.js';


/**
 * The full move sequence of a game, or null when only the opening (or nothing) is known.
 * The stored PGN wins (it carries a FEN header when the game did not start from the initial position).
 */
export function fullGameMoves(store: Store, row: GameRow): { startFen: string; movesUci: string[] } | null {
  if (row.movesSource !== 'pgn') return null;
  if (row.pgnHash) {
    const text = storedPgnText(store, row.pgnHash);
    if (text) {
      try {
        const parsed = parsePgn(text);
        return { startFen: parsed.startFen, movesUci: parsed.plies.map((p) => p.uci) };
      } catch {
        // Fall through to the SAN column: it was derived from this PGN when it was stored.
      }
    }
  }
  if (!row.sanMoves) return null;
  const plies = replaySan(row.sanMoves.split(' ').filter(Boolean), START_FEN);
  if (!plies || plies.length === 0) return null;
  return { startFen: START_FEN, movesUci: plies.map((p) => p.uci) };
}
