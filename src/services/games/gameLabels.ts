import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';

/**
 * Games named as a person names them (issue 43): "latest", "latest loss", "2026-11-17 vs pawn_wizard158", as
 * completion/complete offers them for a prompt's gameId, and back to the owner's game. A second game against the
 * same opponent on the same day is told apart by its order that day: "2026-11-17 vs pawn_wizard158 (game 2)".
 */

export const LATEST_LABELS = ['latest', 'latest win', 'latest loss', 'latest draw'] as const;

interface LabelRow {
  id: string;
  day: string;
  opponent: string;
  nth: number;
  ofDay: number;
}

/** The `${day} vs ${opponent}` games of the owner, newest first, with their order among that day's games against that opponent. */
const LABELS_SQL = `
  SELECT id, day, opponent, nth, ofDay FROM (
    SELECT id, played_at, substr(played_at, 1, 10) AS day, opponent,
           row_number() OVER (PARTITION BY substr(played_at, 1, 10), lower(opponent) ORDER BY played_at, id) AS nth,
           count(*) OVER (PARTITION BY substr(played_at, 1, 10), lower(opponent)) AS ofDay
      FROM games WHERE user_id = ?)
   WHERE (day || ' vs ' || opponent) LIKE ? ESCAPE '\\'
   ORDER BY played_at DESC, id DESC LIMIT ?`;

const labelOf = (r: LabelRow) => `${r.day} vs ${r.opponent}${r.ofDay > 1 ? ` (game ${r.nth})` : ''}`;
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What completion offers for a game: the "latest" names first, then the owner's games newest first; all starting with `prefix` (case-insensitive). */
export function gameLabels(ctx: PersonalCtx, prefix: string, limit: number): string[] {
  const p = prefix.toLowerCase();
  const latest = LATEST_LABELS.filter((l) => l.startsWith(p));
  const rows = ctx.store.sqlite.prepare(LABELS_SQL).all(ctx.user.id, likePrefix(prefix), limit) as LabelRow[];
  return [...latest, ...rows.map(labelOf)].slice(0, limit);
}

const LABEL = /^(\d{4}-\d{2}-\d{2}) vs (.+?)(?: \(game (\d+)\))?$/;

/**
 * The owner's game id a prompt argument names: an id of theirs, one of the "latest" names, or a day and opponent.
 * Unknown (or another owner's) and ambiguous names are a 404 / 400 that say what to give instead.
 */
export function resolveGameRef(ctx: PersonalCtx, ref: string): string {
  const { sqlite } = ctx.store;
  const byId = sqlite.prepare('SELECT id FROM games WHERE user_id = ? AND id = ?').get(ctx.user.id, ref) as { id: string } | undefined;
  if (byId) return byId.id;
  const wanted = ref.trim().toLowerCase();
  if ((LATEST_LABELS as readonly string[]).includes(wanted)) {
    const result = wanted.split(' ')[1];
    const row = sqlite
      .prepare(`SELECT id FROM games WHERE user_id = ? ${result ? 'AND result = ?' : ''} ORDER BY played_at DESC, id DESC LIMIT 1`)
      .get(ctx.user.id, ...(result ? [result] : [])) as { id: string } | undefined;
    if (!row) throw new ApiError(404, `no game for "${ref}": you have no ${result ? `${result}s` : 'games'} yet; call list_games for ids`);
    return row.id;
  }
  const m = LABEL.exec(ref.trim());
  if (!m) throw new ApiError(404, `no game "${ref}": give a game id from list_games, latest, latest win/loss/draw, or "YYYY-MM-DD vs opponent"`);
  const [, day, opponent, nth] = m;
  const rows = sqlite
    .prepare('SELECT id FROM games WHERE user_id = ? AND substr(played_at, 1, 10) = ? AND lower(opponent) = lower(?) ORDER BY played_at, id')
    .all(ctx.user.id, day, opponent) as Array<{ id: string }>;
  if (nth !== undefined) {
    const row = rows[Number(nth) - 1];
    if (!row) throw new ApiError(404, `no game ${nth} against ${opponent} on ${day}; call list_games for ids`);
    return row.id;
  }
  if (rows.length === 1) return rows[0].id;
  if (!rows.length) throw new ApiError(404, `no game against ${opponent} on ${day}; call list_games for ids`);
  throw new ApiError(400, `${rows.length} games against ${opponent} on ${day}: say which, "${day} vs ${opponent} (game 1)" to "(game ${rows.length})"`);
}

/**
 * The owner's opponents on the given sites whose name starts with `prefix`, most games against them first
 * (completion's usernames: the people a player prepares against are those they meet).
 */
export function opponentsByGames(ctx: PersonalCtx, providers: readonly string[], prefix: string, limit: number): string[] {
  const rows = ctx.store.sqlite
    .prepare(
      `SELECT opponent, count(*) AS n FROM games
        WHERE user_id = ? AND provider IN (${providers.map(() => '?').join(', ')}) AND opponent LIKE ? ESCAPE '\\'
        GROUP BY lower(opponent) ORDER BY n DESC, lower(opponent) LIMIT ?`,
    )
    .all(ctx.user.id, ...providers, likePrefix(prefix), limit) as Array<{ opponent: string }>;
  return rows.map((r) => r.opponent);
}

/** The ids of the owner's games with a stored PGN (chess-footprint://games/{id}.pgn) starting with `prefix`, newest first. */
export function gameIdsWithPgn(ctx: PersonalCtx, prefix: string, limit: number): string[] {
  const rows = ctx.store.sqlite
    .prepare("SELECT id FROM games WHERE user_id = ? AND pgn_hash IS NOT NULL AND id LIKE ? ESCAPE '\\' ORDER BY played_at DESC, id DESC LIMIT ?")
    .all(ctx.user.id, likePrefix(prefix), limit) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}
