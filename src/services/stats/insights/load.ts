import { parseTimeControl, type TimeControlInfo } from '../../../chess/clocks.js';
import type { Store } from '../../../store/db.js';
import type { StatGame } from '../blocks.js';

/** What the insight blocks read of a game beyond StatGame: clocks, its review key and how it ended. */
export interface InsightGame extends StatGame {
  ratingDelta: number | null;
  movesKey: string | null;
  /**
   * games.clocks as stored (JSON), read with `parseClocks` (src/chess/clocks.ts) for the one game
   * being looked at. Parsed here for 10,000 games at once, the arrays outlived the young generation
   * and left some 10 MB of garbage in the old one per recomputation (issue 13, server peak RSS).
   */
  clocksJson: string | null;
  timeControl: TimeControlInfo | null;
  /** The PGN Termination tag when a PGN is stored and records one (pgns.termination, read once when stored). */
  termination: string | null;
}

interface Row {
  id: string;
  rating_delta: number | null;
  moves_key: string | null;
  clocks: string | null;
  time_control: string | null;
  termination: string | null;
}

const CHUNK = 500;

/**
 * The extra columns for the games the aggregates already loaded (by id, chunked under SQLite's
 * variable limit), so the insight blocks cover exactly the same games and the same cap.
 */
export function loadInsightGames(store: Store, userId: string, games: readonly StatGame[]): InsightGame[] {
  const extra = new Map<string, Row>();
  const stmt = (n: number) =>
    store.sqlite.prepare(
      `SELECT g.id, g.rating_delta, g.moves_key, g.clocks, g.time_control, p.termination
         FROM games g LEFT JOIN pgns p ON p.hash = g.pgn_hash
        WHERE g.user_id = ? AND g.id IN (${Array.from({ length: n }, () => '?').join(',')})`,
    );
  for (let i = 0; i < games.length; i += CHUNK) {
    const ids = games.slice(i, i + CHUNK).map((g) => g.id);
    for (const r of stmt(ids.length).all(userId, ...ids) as Row[]) extra.set(r.id, r);
  }
  return games.map((g) => {
    const r = extra.get(g.id);
    // Field by field, not `{ ...g, ratingDelta, … }`: in V8 a spread followed by more properties gives
    // each object a hidden class of its own, some 3 KB and 10 µs per game (30 MB per recomputation).
    return {
      id: g.id,
      playedAt: g.playedAt,
      provider: g.provider,
      colour: g.colour,
      result: g.result,
      opponent: g.opponent,
      opponentRating: g.opponentRating,
      userRating: g.userRating,
      timeClass: g.timeClass,
      opening: g.opening,
      movesCount: g.movesCount,
      accuracy: g.accuracy,
      ratingDelta: r?.rating_delta ?? null,
      movesKey: r?.moves_key ?? null,
      clocksJson: r?.clocks ?? null,
      timeControl: parseTimeControl(r?.time_control),
      termination: r?.termination ?? null,
    };
  });
}
