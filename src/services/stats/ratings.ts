import type { RatingLine, RatingLines, RatingsInput } from '../../../schemas/aggregates.js';
import { STAT_TIME_CLASSES, SYNCED_PROVIDERS, type StatTimeClass, type SyncedProvider } from '../../../schemas/common.js';
import type { PersonalCtx } from '../../context.js';
import type { Store } from '../../store/db.js';
import { memoByOwner } from '../common/index.js';
import { isoDate, rangeStart, statTimeClass } from '../common/index.js';

/** A rating series longer than this is evenly thinned (spec section 8). */
export const MAX_POINTS = 60;

/** rating_points series that are not playing ratings. */
const NON_GAME_SERIES = ['puzzle', 'tactics-highest', 'tactics-lowest'];

interface Reading {
  at: string;
  rating: number;
}

export interface RatingQuery {
  providers: readonly SyncedProvider[] | null;
  timeClasses: readonly StatTimeClass[] | null;
  /** First day of the window (inclusive); null = from the beginning. */
  from: string | null;
  /** Day after the window (exclusive); null = up to now. */
  toExclusive: string | null;
}

/**
 * Keeps at most `max` points: the first, the last, and evenly spaced ones between
 * (index round(i × (n − 1) / (max − 1))), so the shape of a long series survives.
 */
export function downsample<T>(points: readonly T[], max = MAX_POINTS): { points: T[]; downsampled: boolean } {
  if (points.length <= max) return { points: [...points], downsampled: false };
  const out: T[] = [];
  for (let i = 0; i < max; i += 1) out.push(points[Math.round((i * (points.length - 1)) / (max - 1))]);
  return { points: out, downsampled: true };
}

/** One point per day with a reading: the day's last rating. `readings` must be in time order. */
export function dailyLast(readings: readonly Reading[]): Array<{ date: string; rating: number }> {
  const out: Array<{ date: string; rating: number }> = [];
  for (const r of readings) {
    const date = r.at.slice(0, 10);
    if (out.length && out[out.length - 1].date === date) out[out.length - 1].rating = r.rating;
    else out.push({ date, rating: r.rating });
  }
  return out;
}

/**
 * Readings of the owner by provider and stat time class, in time order: those inside the window,
 * and (in `seeds`) the latest one before it. The seeds come from grouped queries, so a long history
 * before the window is never read row by row.
 */
function readings(store: Store, userId: string, q: RatingQuery): { inside: Map<string, Reading[]>; seeds: Map<string, Reading> } {
  const providers = q.providers ?? SYNCED_PROVIDERS;
  const ph = providers.map(() => '?').join(',');
  const nonGame = NON_GAME_SERIES.map(() => '?').join(',');
  const fromIso = q.from ? `${q.from}T00:00:00.000Z` : null;
  const endIso = q.toExclusive ? `${q.toExclusive}T00:00:00.000Z` : null;
  const wanted = (tc: StatTimeClass) => !q.timeClasses || q.timeClasses.includes(tc);
  type GameRow = { provider: string; time_class: string; played_at: string; rating: number };
  type PointRow = { provider: string; series: string; date: string; rating: number };
  // A game gives the rating after it (userRating is the rating before; after = before + delta).
  // Inside the window only each day's last game of a class counts (dailyLast), so SQLite keeps just
  // that one (the bare columns of the row holding max()): a 100,000-game history is a few thousand
  // rows, not 100,000 objects. The seed is the last game of each class before the window.
  const gameSql = (cond: string, group: 'day' | 'seed') =>
    `SELECT provider, time_class, max(played_at) AS played_at, user_rating + coalesce(rating_delta, 0) AS rating
       FROM games WHERE user_id = ? AND provider IN (${ph}) AND user_rating IS NOT NULL ${cond}
      GROUP BY provider, time_class${group === 'day' ? ', substr(played_at, 1, 10)' : ''}`;
  // Published readings (lichess history, ECF ratings) stand for the end of their day.
  const pointSql = (cond: string, group: boolean) =>
    `SELECT provider, series, ${group ? 'max(date)' : 'date'} AS date, rating FROM rating_points
      WHERE user_id = ? AND provider IN (${ph}) AND series NOT IN (${nonGame}) ${cond} ${group ? 'GROUP BY provider, series' : ''}`;
  const fromGame = (g: GameRow) => ({ key: `${g.provider}|${statTimeClass(g.provider, g.time_class)}`, tc: statTimeClass(g.provider, g.time_class), r: { at: g.played_at, rating: g.rating } });
  const fromPoint = (p: PointRow) => ({ key: `${p.provider}|${statTimeClass(p.provider, p.series)}`, tc: statTimeClass(p.provider, p.series), r: { at: `${p.date}T23:59:59.999Z`, rating: p.rating } });

  const inside = new Map<string, Reading[]>();
  const insideGames = store.sqlite
    .prepare(gameSql(`${fromIso ? 'AND played_at >= ?' : ''} ${endIso ? 'AND played_at < ?' : ''}`, 'day'))
    .all(userId, ...providers, ...(fromIso ? [fromIso] : []), ...(endIso ? [endIso] : [])) as GameRow[];
  const insidePoints = store.sqlite
    .prepare(pointSql(`${q.from ? 'AND date >= ?' : ''} ${q.toExclusive ? 'AND date < ?' : ''}`, false))
    .all(userId, ...providers, ...NON_GAME_SERIES, ...(q.from ? [q.from] : []), ...(q.toExclusive ? [q.toExclusive] : [])) as PointRow[];
  for (const { key, tc, r } of [...insideGames.map(fromGame), ...insidePoints.map(fromPoint)]) {
    if (!wanted(tc)) continue;
    const list = inside.get(key);
    if (list) list.push(r);
    else inside.set(key, [r]);
  }
  for (const list of inside.values()) list.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));

  const seeds = new Map<string, Reading>();
  if (fromIso && q.from) {
    // SQLite gives the bare columns of the row holding max(): the rating of the latest reading.
    const seedGames = store.sqlite.prepare(gameSql('AND played_at < ?', 'seed')).all(userId, ...providers, fromIso) as GameRow[];
    const seedPoints = store.sqlite.prepare(pointSql('AND date < ?', true)).all(userId, ...providers, ...NON_GAME_SERIES, q.from) as PointRow[];
    for (const { key, tc, r } of [...seedGames.map(fromGame), ...seedPoints.map(fromPoint)]) {
      if (!wanted(tc)) continue;
      const prev = seeds.get(key);
      if (!prev || r.at > prev.at) seeds.set(key, r);
    }
  }
  return { inside, seeds };
}

/** Rating lines over a window: one per provider and time class with a reading in it. */
export function ratingLinesFor(store: Store, userId: string, q: RatingQuery): RatingLine[] {
  const { inside: all, seeds } = readings(store, userId, q);
  const lines: RatingLine[] = [];
  for (const provider of SYNCED_PROVIDERS) {
    for (const timeClass of STAT_TIME_CLASSES) {
      const inside = all.get(`${provider}|${timeClass}`);
      if (!inside?.length) continue;
      const daily = dailyLast(inside);
      const seed = seeds.get(`${provider}|${timeClass}`);
      const start = seed ? seed.rating : daily[0].rating;
      const end = daily[daily.length - 1].rating;
      const { points, downsampled } = downsample(daily);
      lines.push({ provider, timeClass, points, pointsDownsampled: downsampled, start, end, delta: end - start, seededFromBefore: !!seed });
    }
  }
  return lines;
}

/** Kept per version of the owner's games and rating points (and today's date): see ownerMemo.ts. */
export function ratingProgress(ctx: PersonalCtx, input: RatingsInput): RatingLines {
  const now = ctx.clock.now();
  const key = `get_rating_progress ${isoDate(now)} ${JSON.stringify(input)}`;
  return memoByOwner(ctx.store, ctx.user.id, key, () => computeRatingProgress(ctx, input, now));
}

function computeRatingProgress(ctx: PersonalCtx, input: RatingsInput, now: Date): RatingLines {
  const from = rangeStart(input.range, now);
  const q: RatingQuery = { providers: input.provider ?? null, timeClasses: input.timeClass ?? null, from, toExclusive: null };
  const lines = ratingLinesFor(ctx.store, ctx.user.id, q);
  const earliest = lines.reduce<string | null>((m, l) => (m === null || l.points[0].date < m ? l.points[0].date : m), null);
  return {
    filters: { range: input.range, providers: q.providers ? [...q.providers] : null, timeClasses: q.timeClasses ? [...q.timeClasses] : null },
    window: { from: from ?? earliest ?? isoDate(now), to: null },
    lines,
  };
}
