import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { WeeklyReport, type ReportSection } from '../../../schemas/aggregates.js';
import { SYNCED_PROVIDERS, type SyncedProvider } from '../../../schemas/common.js';
import { sha256Hex } from '../../store/secretKey.js';
import { reportShareFingerprint, reportShareToken } from '../../store/storedSecrets.js';
import type { Clock } from '../../clock.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { Store } from '../../store/db.js';
import { weeklyReports } from '../../store/schema/index.js';
import { puzzleWeek } from '../stats/index.js';
import { ratingLinesFor } from '../stats/index.js';
import { STATS_CAP } from '../stats/index.js';
import { bestWin, counts, worstDefeat } from '../stats/index.js';
import { loadStatGames } from '../stats/index.js';
import { addDays, isoDate, linkBase } from '../common/index.js';

// A report week runs Saturday 00:00 to Friday 24:00 UTC and is named by its Friday. It is due
// (generated, frozen and emailed) as soon as it has closed: the first moment of the Saturday after.

const LABELS: Record<SyncedProvider, string> = { siteA: 'chess.com', siteB: 'lichess', fed: 'Over the board (ECF)' };

export type ReportRow = typeof weeklyReports.$inferSelect;

export function isFriday(date: string): boolean {
  return new Date(`${date}T00:00:00Z`).getUTCDay() === 5;
}

/** The Friday ending the most recent week that has fully closed at `now`. */
export function lastClosedWeekEnd(now: Date): string {
  const today = isoDate(now);
  const back = (now.getUTCDay() + 2) % 7; // Saturday 1, Sunday 2, … Friday 0 (that week is still open)
  return addDays(today, -(back === 0 ? 7 : back));
}

/** When the next report after the last closed week falls due. */
export function nextDueAt(now: Date): string {
  return `${addDays(lastClosedWeekEnd(now), 8)}T00:00:00.000Z`;
}

/** The share page of a report: the unguessable path (derived from the store key), under `baseUrl`. */
export function shareUrlFor(store: Store, baseUrl: string, reportId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/share/reports/${reportShareToken(store, reportId)}`;
}

function section(store: Store, userId: string, provider: SyncedProvider, weekStart: string, after: string): ReportSection {
  const games = loadStatGames(
    store,
    userId,
    { providers: [provider], timeClasses: null, opening: null, fromIso: `${weekStart}T00:00:00.000Z`, toIso: `${after}T00:00:00.000Z` },
    STATS_CAP,
  );
  return {
    provider,
    label: LABELS[provider],
    games: games.length,
    results: counts(games),
    ratingLines: ratingLinesFor(store, userId, { providers: [provider], timeClasses: null, from: weekStart, toExclusive: after }),
    bestWin: bestWin(games),
    toughestDefeat: worstDefeat(games),
  };
}

/** What is frozen: the report without its link, which depends on the origin serving it (added by payloadOf). */
export type FrozenReport = Omit<WeeklyReport, 'shareUrl'>;

/** Builds the payload of one week from the store as it stands. */
export function buildReport(store: Store, userId: string, weekEnd: string, generatedAt: string): FrozenReport {
  const weekStart = addDays(weekEnd, -6);
  const after = addDays(weekEnd, 1);
  const [siteA, siteB, fed] = SYNCED_PROVIDERS.map((p) => section(store, userId, p, weekStart, after));
  return { weekStart, weekEnd, generatedAt, sections: { siteA, siteB, fed }, puzzles: puzzleWeek(store, userId, weekStart, after) };
}

/**
 * The report of the week ending `weekEnd` (a Friday): generated and frozen now, or the one already
 * stored (never regenerated: a frozen report does not change when more games arrive).
 */
export function generateReport(
  store: Store,
  clock: Clock,
  userId: string,
  weekEnd: string,
): { row: ReportRow; created: boolean } {
  if (!isFriday(weekEnd)) throw new ApiError(400, `${weekEnd} is not a Friday: weekly reports end on Fridays (UTC)`);
  const existing = findReport(store, userId, weekEnd);
  if (existing) return { row: existing, created: false };
  const generatedAt = clock.now().toISOString();
  const payload = buildReport(store, userId, weekEnd, generatedAt);
  const id = randomUUID();
  const row: ReportRow = {
    id,
    userId,
    weekStart: payload.weekStart,
    weekEnd,
    payload: JSON.stringify(payload),
    generatedAt,
    // Only the fingerprint of the share link's token is stored (src/store/storedSecrets.ts).
    shareToken: reportShareFingerprint(store, id),
    emailedAt: null,
  };
  const inserted = store.sqlite
    .transaction(() => store.db.insert(weeklyReports).values(row).onConflictDoNothing({ target: [weeklyReports.userId, weeklyReports.weekEnd] }).run().changes)
    .immediate();
  // Another process may have frozen the same week first; theirs stands.
  return inserted ? { row, created: true } : { row: findReport(store, userId, weekEnd)!, created: false };
}

export function findReport(store: Store, userId: string, weekEnd: string): ReportRow | null {
  return store.db.select().from(weeklyReports).where(and(eq(weeklyReports.userId, userId), eq(weeklyReports.weekEnd, weekEnd))).get() ?? null;
}

export function latestReportRow(store: Store, userId: string): ReportRow | null {
  return store.db.select().from(weeklyReports).where(eq(weeklyReports.userId, userId)).orderBy(desc(weeklyReports.weekEnd)).limit(1).get() ?? null;
}

export function reportByShareToken(store: Store, token: string): ReportRow | null {
  return store.db.select().from(weeklyReports).where(eq(weeklyReports.shareToken, sha256Hex(token))).get() ?? null;
}

export function markEmailed(store: Store, id: string, at: string): void {
  store.sqlite.transaction(() => store.db.update(weeklyReports).set({ emailedAt: at }).where(eq(weeklyReports.id, id)).run()).immediate();
}

/** The frozen report with its share link under `baseUrl` (older stores froze a link too: it is replaced). */
export function payloadOf(store: Store, row: ReportRow, baseUrl: string): WeeklyReport {
  const { shareUrl: _frozenLink, ...frozen } = JSON.parse(row.payload) as FrozenReport & { shareUrl?: string };
  return { ...frozen, shareUrl: shareUrlFor(store, baseUrl, row.id) };
}

export function latestReport(ctx: PersonalCtx): WeeklyReport {
  const row = latestReportRow(ctx.store, ctx.user.id);
  if (!row) {
    const now = ctx.clock.now();
    throw new ApiError(
      404,
      `no weekly report has been generated yet; the next one is due at ${nextDueAt(now)}, when the week ending Friday ${addDays(lastClosedWeekEnd(now), 7)} closes (the server generates it on schedule; \`chess-footprint report generate\` does it on demand)`,
    );
  }
  return payloadOf(ctx.store, row, linkBase(ctx));
}
