import type { Range, StatTimeClass, SyncedProvider } from '../../../schemas/common.js';

export const DAY_MS = 86_400_000;
export const RANGE_DAYS: Record<Exclude<Range, 'all'>, number> = { '30d': 30, '90d': 90, '1y': 365 };

export function isoDate(d: Date | number): string {
  return new Date(d).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return isoDate(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);
}

/** First day of a range ending now: the day 30, 90 or 365 days before today (UTC); null for `all`. */
export function rangeStart(range: Range, now: Date): string | null {
  if (range === 'all') return null;
  return isoDate(now.getTime() - RANGE_DAYS[range] * DAY_MS);
}

/**
 * Sources name time classes their own way; stats and ratings speak four.
 * Over-the-board (fed) games are standard whatever the row says.
 */
export function statTimeClass(provider: string, raw: string): StatTimeClass {
  if (provider === 'fed') return 'standard';
  switch (raw) {
    case 'ultraBullet':
    case 'bullet':
      return 'bullet';
    case 'blitz':
      return 'blitz';
    case 'rapid':
      return 'rapid';
    default:
      // classical, daily, correspondence, standard, and anything unforeseen that is slow
      return 'standard';
  }
}

/** The raw classes that map to each stat class (for SQL filters). */
export const RAW_OF: Record<StatTimeClass, string[]> = {
  bullet: ['ultraBullet', 'bullet'],
  blitz: ['blitz'],
  rapid: ['rapid'],
  standard: ['classical', 'daily', 'correspondence', 'standard'],
};

export interface Selection {
  providers: SyncedProvider[] | null;
  timeClasses: StatTimeClass[] | null;
}

/**
 * SQL condition (and its parameters) for provider and stat-time-class filters on `games`.
 * Kept in SQL so that the 10,000-game cap counts the filtered games.
 */
export function selectionSql(sel: Selection): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (sel.providers) {
    parts.push(`provider IN (${sel.providers.map(() => '?').join(',')})`);
    params.push(...sel.providers);
  }
  if (sel.timeClasses) {
    const raws = sel.timeClasses.flatMap((c) => RAW_OF[c]);
    const online = `(provider <> 'fed' AND time_class IN (${raws.map(() => '?').join(',')}))`;
    params.push(...raws);
    parts.push(sel.timeClasses.includes('standard') ? `(provider = 'fed' OR ${online})` : online);
  }
  return { sql: parts.length ? parts.map((p) => `AND ${p}`).join(' ') : '', params };
}

/** LIKE pattern for a case-insensitive prefix, with the wildcards of the text escaped. */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
