import type { PuzzleStats, WeeklyReport } from '../../../schemas/aggregates.js';
import type { PersonalCtx } from '../../context.js';
import type { Store } from '../../store/db.js';
import { downsample } from './ratings.js';
import { addDays, isoDate } from '../common/index.js';

const SUMMARY_DAYS = 84; // 12 weeks, today included
const round1 = (x: number) => Math.round(x * 10) / 10;

type Bucket = PuzzleStats['volume']['bucket'];

/** Day of the Monday starting the week of `date`. */
function mondayOf(date: string): string {
  const dow = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(date, -dow);
}

function periodOf(bucket: Bucket, date: string): string {
  if (bucket === 'day') return date;
  if (bucket === 'week') return mondayOf(date);
  return `${date.slice(0, 7)}-01`;
}

function nextPeriod(bucket: Bucket, period: string): string {
  if (bucket === 'day') return addDays(period, 1);
  if (bucket === 'week') return addDays(period, 7);
  const [y, m] = period.split('-').map(Number);
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/** Day buckets up to a month of history, weeks up to half a year, months beyond. */
export function bucketFor(from: string, to: string): Bucket {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  return days <= 31 ? 'day' : days <= 182 ? 'week' : 'month';
}

interface Attempt {
  day: string;
  win: number;
  rating: number | null;
}

function attempts(store: Store, userId: string, fromIso: string | null, toIso: string): Attempt[] {
  return store.sqlite
    .prepare(
      `SELECT substr(attempted_at, 1, 10) AS day, win, puzzle_rating AS rating FROM puzzle_attempts
        WHERE user_id = ? ${fromIso ? 'AND attempted_at >= ?' : ''} AND attempted_at < ? ORDER BY attempted_at`,
    )
    .all(userId, ...(fromIso ? [fromIso] : []), toIso) as Attempt[];
}

function summarise(xs: readonly Attempt[]) {
  const solved = xs.filter((a) => a.win).length;
  const rated = xs.filter((a) => a.rating !== null);
  return {
    attempts: xs.length,
    solved,
    winRate: xs.length ? round1((100 * solved) / xs.length) : null,
    averagePuzzleRating: rated.length ? Math.round(rated.reduce((s, a) => s + a.rating!, 0) / rated.length) : null,
  };
}

function series(store: Store, userId: string, provider: 'siteA' | 'siteB', name: string, toExclusive?: string) {
  return store.sqlite
    .prepare(
      `SELECT date, rating FROM rating_points WHERE user_id = ? AND provider = ? AND series = ? ${toExclusive ? 'AND date < ?' : ''} ORDER BY date`,
    )
    .all(userId, provider, name, ...(toExclusive ? [toExclusive] : [])) as Array<{ date: string; rating: number }>;
}

export function puzzleStatsFor(store: Store, userId: string, now: Date): PuzzleStats {
  const today = isoDate(now);
  const endIso = `${addDays(today, 1)}T00:00:00.000Z`;
  const all = attempts(store, userId, null, endIso);
  const from = all.length ? all[0].day : today;
  const bucket = bucketFor(from, today);
  const counts = new Map<string, { attempts: number; solved: number }>();
  for (const a of all) {
    const p = periodOf(bucket, a.day);
    const c = counts.get(p) ?? { attempts: 0, solved: 0 };
    c.attempts += 1;
    c.solved += a.win ? 1 : 0;
    counts.set(p, c);
  }
  const points: PuzzleStats['volume']['points'] = [];
  for (let p = periodOf(bucket, from); p <= today; p = nextPeriod(bucket, p)) {
    points.push({ period: p, ...(counts.get(p) ?? { attempts: 0, solved: 0 }) });
  }
  const summaryFrom = addDays(today, -(SUMMARY_DAYS - 1));
  const lichess = series(store, userId, 'siteB', 'puzzle');
  const thinned = downsample(lichess);
  const highs = series(store, userId, 'siteA', 'tactics-highest');
  const peak = highs.reduce<{ date: string; rating: number } | null>((m, r) => (!m || r.rating > m.rating ? r : m), null);
  return {
    window: { from, to: today },
    summary: { from: summaryFrom, to: today, ...summarise(all.filter((a) => a.day >= summaryFrom)) },
    volume: { bucket, points },
    ratings: {
      siteB: { current: lichess.at(-1)?.rating ?? null, points: thinned.points, pointsDownsampled: thinned.downsampled },
      siteA: { peak: peak?.rating ?? null, peakDate: peak?.date ?? null, peakOnly: true },
    },
  };
}

export function puzzleStats(ctx: PersonalCtx): PuzzleStats {
  return puzzleStatsFor(ctx.store, ctx.user.id, ctx.clock.now());
}

/** Puzzles of one report week [from, toExclusive). */
export function puzzleWeek(store: Store, userId: string, from: string, toExclusive: string): WeeklyReport['puzzles'] {
  const s = summarise(attempts(store, userId, `${from}T00:00:00.000Z`, `${toExclusive}T00:00:00.000Z`));
  const before = series(store, userId, 'siteB', 'puzzle', toExclusive);
  const inWeek = before.filter((r) => r.date >= from);
  const seed = before.filter((r) => r.date < from).at(-1);
  const siteBRating = inWeek.length
    ? { start: (seed ?? inWeek[0]).rating, end: inWeek.at(-1)!.rating, delta: inWeek.at(-1)!.rating - (seed ?? inWeek[0]).rating }
    : null;
  return { attempts: s.attempts, solved: s.solved, winRate: s.winRate, siteBRating };
}
