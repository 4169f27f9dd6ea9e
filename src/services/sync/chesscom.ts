import { archiveMonths, fetchMonth, playerStats } from '../../sources/chesscom/client.js';
import { parseChesscomGame, parseTactics, type RatingChain } from '../../sources/chesscom/parse.js';
import { SourceHttpError, type SourceRecord } from '../../sources/types.js';
import { clientFor, type SourceSyncContext } from './types.js';
import { readCursor, saveCursor, storeBatch, storeRatingPoints } from './write.js';

export interface MonthState {
  etag: string | null;
  lastModified: string | null;
  /** When the month was last fetched or revalidated. */
  checkedAt: string;
  /** The owner's post-game rating per class after this month: the next month's "before" ratings. */
  exit: RatingChain;
}

export interface ChesscomCursor {
  months: Record<string, MonthState>;
}

// A month is final once checked this long after it ended (late-finishing daily games land in their end month,
// and PubAPI data can be up to a day stale).
export const SETTLE_MS = 2 * 86_400_000;

export function monthEnd(month: string): number {
  const [y, m] = month.split('/').map(Number);
  return Date.UTC(y, m, 1); // first instant of the next month (Date.UTC months are 0-based)
}

export async function syncChesscom(sc: SourceSyncContext): Promise<void> {
  const { deps, connection, opts, summary } = sc;
  const username = connection.externalId;
  // chess.com names no wait on 429: back off from 5 s, doubling (the polite client repeats the request).
  const client = clientFor(sc, deps.config.sources.chesscomUrl, 'chess.com', { rateLimitWaitMs: 5_000, backoffFactor: 2 });
  const stored = readCursor<ChesscomCursor>(connection.cursor);
  const cursor: ChesscomCursor = { months: opts.full ? {} : { ...(stored.months ?? {}) } };

  sc.progress('archives');
  const months = await archiveMonths(client, username);
  let chain: RatingChain = {};
  for (const [i, month] of months.entries()) {
    sc.progress(`archive ${month}`, i, months.length);
    const state = cursor.months[month];
    if (state && Date.parse(state.checkedAt) >= monthEnd(month) + SETTLE_MS) {
      // Checked after it settled: final, no request at all.
      summary.monthsUnchanged += 1;
      chain = { ...state.exit };
      continue;
    }
    const now = deps.clock.now().toISOString();
    const res = await fetchMonth(client, username, month, state ?? null);
    if (res.games === null && state) {
      summary.monthsUnchanged += 1;
      cursor.months[month] = { ...state, checkedAt: now };
      saveCursor(sc, cursor);
      chain = { ...state.exit };
      continue;
    }
    // The whole month is parsed before anything is written: a malformed game stores nothing of its month.
    const monthChain = { ...chain };
    const records: SourceRecord[] = [];
    for (const [j, raw] of (res.games ?? []).entries()) {
      summary.fetched += 1;
      const rec = parseChesscomGame(raw, username, monthChain, `chess.com archive ${month}: games[${j}]`);
      if ('skip' in rec) summary.skipped[rec.skip] = (summary.skipped[rec.skip] ?? 0) + 1;
      else records.push(rec);
    }
    cursor.months[month] = { etag: res.etag, lastModified: res.lastModified, checkedAt: now, exit: monthChain };
    storeBatch(sc, records, cursor);
    chain = monthChain;
    sc.progress(`archive ${month}`, i + 1, months.length);
  }

  sc.progress('stats');
  try {
    storeRatingPoints(sc, parseTactics(await playerStats(client, username)));
  } catch (err) {
    if (!(err instanceof SourceHttpError)) throw err;
    summary.notes.push(`stats not available (HTTP ${err.status})`);
  }
}
