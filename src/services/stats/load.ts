import type { Store } from '../../store/db.js';
import type { StatGame } from './blocks.js';
import { likePrefix, selectionSql, statTimeClass, type Selection } from '../common/index.js';

export interface GameQuery extends Selection {
  /** Inclusive lower bound on playedAt (ISO); null for no bound. */
  fromIso: string | null;
  /** Exclusive upper bound on playedAt (ISO); null for no bound. */
  toIso: string | null;
  opening: string | null;
}

interface Row {
  id: string;
  played_at: string;
  provider: string;
  colour: 'white' | 'black';
  result: 'win' | 'draw' | 'loss';
  opponent: string;
  opponent_rating: number | null;
  user_rating: number | null;
  time_class: string;
  opening: string | null;
  moves_count: number;
  accuracy: number | null;
}

function where(userId: string, q: GameQuery) {
  const sel = selectionSql(q);
  let sql = `WHERE user_id = ? ${sel.sql}`;
  const params: unknown[] = [userId, ...sel.params];
  if (q.fromIso) {
    sql += ' AND played_at >= ?';
    params.push(q.fromIso);
  }
  if (q.toIso) {
    sql += ' AND played_at < ?';
    params.push(q.toIso);
  }
  if (q.opening) {
    // SQLite LIKE is case-insensitive for ASCII, which is what opening names are.
    sql += ` AND opening LIKE ? ESCAPE '\\'`;
    params.push(likePrefix(q.opening));
  }
  return { sql, params };
}

/** How many of the owner's games match, and the earliest date among them. */
export function countGames(store: Store, userId: string, q: GameQuery): { games: number; earliest: string | null } {
  const w = where(userId, q);
  const row = store.sqlite.prepare(`SELECT count(*) AS n, min(played_at) AS earliest FROM games ${w.sql}`).get(...w.params) as {
    n: number;
    earliest: string | null;
  };
  return { games: row.n, earliest: row.earliest };
}

/** The most recent `limit` matching games, newest first, in the shape the aggregates use. */
export function loadStatGames(store: Store, userId: string, q: GameQuery, limit: number): StatGame[] {
  const w = where(userId, q);
  const rows = store.sqlite
    .prepare(
      `SELECT id, played_at, provider, colour, result, opponent, opponent_rating, user_rating, time_class, opening, moves_count,
              coalesce(platform_accuracy, review_accuracy) AS accuracy
         FROM games ${w.sql} ORDER BY played_at DESC, id DESC LIMIT ?`,
    )
    .all(...w.params, limit) as Row[];
  return rows.map((r) => ({
    id: r.id,
    playedAt: r.played_at,
    provider: r.provider,
    colour: r.colour,
    result: r.result,
    opponent: r.opponent,
    opponentRating: r.opponent_rating,
    userRating: r.user_rating,
    timeClass: statTimeClass(r.provider, r.time_class),
    opening: r.opening,
    movesCount: r.moves_count,
    accuracy: r.accuracy,
  }));
}
