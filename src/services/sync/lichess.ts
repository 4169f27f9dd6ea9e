import { exportGames, puzzleActivity, ratingHistory, userPublic, type LichessOptions } from '../../sources/lichess/client.js';
import { parseCurrentPerfs, parseLichessGame, parsePuzzleAttempt, parseRatingHistory } from '../../sources/lichess/parse.js';
import { SourceFormatError, SourceHttpError, SourceRateLimited, SourceStalled, type SourceRecord } from '../../sources/types.js';
import { clientFor, type SourceSyncContext } from './types.js';
import { readCursor, saveDetails, storeBatch, storePuzzleAttempts, storeRatingPoints } from './write.js';

export interface LichessCursor {
  /** createdAt (ms) of the newest game stored: the next export starts there (inclusive; duplicates are skipped). */
  since: number;
  /** date (ms) of the newest puzzle attempt stored. */
  puzzleSince: number;
  /**
   * createdAt (ms) of the oldest game still in progress at the last sync. `since` filters on creation,
   * so a correspondence game that started before the cursor and finishes after it would never come back:
   * the next export starts here instead, until that game has finished and been stored.
   */
  ongoingFrom?: number;
}

/** lichess asks for a full minute after a 429 (https://lichess.org/api, "Rate limiting"). */
export const LICHESS_429_WAIT_MS = 60_000;
/** How every client of ours waits on lichess (the sync, the scout, the opening explorer): that minute, not doubled. */
export const LICHESS_POLITENESS = { rateLimitWaitMs: LICHESS_429_WAIT_MS, backoffFactor: 1 } as const;
const MAX_RESUMES = 5;

/** A dropped or stalled connection (body cut or silent mid-stream, reset): resumable, unlike a format error. */
function isNetworkCut(err: unknown): boolean {
  if (err instanceof SourceStalled) return true;
  if (err instanceof SourceFormatError || err instanceof SourceHttpError || err instanceof SourceRateLimited) return false;
  const e = err as { name?: string; message?: string; cause?: { code?: string } };
  if (e?.name === 'AbortError') return false;
  return e?.name === 'TypeError' || /terminated|ECONNRESET|socket|fetch failed|premature/i.test(String(e?.message)) || !!e?.cause?.code;
}

export async function syncLichess(sc: SourceSyncContext): Promise<void> {
  const { deps, connection, opts, summary } = sc;
  const username = connection.externalId;
  // Every request waits at least a minute after a 429, whatever Retry-After says, and repeats.
  const client: LichessOptions = {
    ...clientFor(sc, deps.config.sources.lichessUrl, 'lichess', LICHESS_POLITENESS),
    token: connection.sourceToken,
  };
  const batchSize = opts.batchSize ?? 200;
  const cursor = { ...readCursor<LichessCursor>(connection.cursor) };
  const oldOngoing = opts.full ? undefined : cursor.ongoingFrom;
  const start = Math.min(cursor.since ?? Infinity, oldOngoing ?? Infinity);
  let since: number | null = opts.full || start === Infinity ? null : start;
  let seenOngoing: number | undefined;

  // The stream is consumed one line at a time; at most `batchSize` parsed games are held before they commit.
  let pending: SourceRecord[] = [];
  let pendingSince: number | null = null;
  const flush = () => {
    if (pendingSince === null) return;
    cursor.since = Math.max(cursor.since ?? 0, pendingSince);
    // The old in-progress mark holds until this export has passed it (and so re-read that game).
    const keepOld = oldOngoing !== undefined && pendingSince < oldOngoing ? oldOngoing : undefined;
    const ongoing = Math.min(seenOngoing ?? Infinity, keepOld ?? Infinity);
    if (ongoing === Infinity) delete cursor.ongoingFrom;
    else cursor.ongoingFrom = ongoing;
    storeBatch(sc, pending, cursor);
    pending = [];
    pendingSince = null;
  };

  for (let attempt = 0; ; attempt += 1) {
    try {
      for await (const raw of exportGames(client, username, since)) {
        summary.fetched += 1;
        const rec = parseLichessGame(raw, username);
        const createdAt = (raw as { createdAt: number }).createdAt;
        if ('skip' in rec) summary.skipped[rec.skip] = (summary.skipped[rec.skip] ?? 0) + 1;
        else pending.push(rec);
        if ('skip' in rec && rec.skip === 'unfinished') seenOngoing = Math.min(seenOngoing ?? Infinity, createdAt);
        pendingSince = createdAt;
        if (summary.fetched % batchSize === 0) flush();
        sc.progress('games');
      }
      flush();
      break;
    } catch (err) {
      // Everything parsed before the failure is whole: keep it, so the resume (or the next sync) starts after it.
      // (A 429 has already been waited out and repeated by the polite client: reaching here, lichess kept refusing.)
      flush();
      if (!isNetworkCut(err) || attempt >= MAX_RESUMES) throw err;
      summary.notes.push(`the lichess stream was ${err instanceof SourceStalled ? 'stalled' : 'cut'}: resumed from the last stored game`);
      since = cursor.since ?? since;
    }
  }

  sc.progress('rating history');
  try {
    const points = parseRatingHistory(await ratingHistory(client, username));
    storeRatingPoints(sc, points);
  } catch (err) {
    if (!(err instanceof SourceHttpError)) throw err;
    summary.notes.push(`rating history not available (HTTP ${err.status})`);
  }

  sc.progress('current ratings');
  try {
    saveDetails(sc, { perfs: parseCurrentPerfs(await userPublic(client, username)), fetchedAt: deps.clock.now().toISOString() });
  } catch (err) {
    if (!(err instanceof SourceHttpError)) throw err;
    summary.notes.push(`current ratings not available (HTTP ${err.status})`);
  }

  if (connection.sourceToken) {
    sc.progress('puzzle activity');
    try {
      const rows = (await puzzleActivity(client, opts.full ? null : (cursor.puzzleSince ?? null))).map(parsePuzzleAttempt);
      const newest = rows.reduce((m, r) => Math.max(m, Date.parse(r.attemptedAt)), cursor.puzzleSince ?? 0);
      storePuzzleAttempts(sc, rows, { ...cursor, puzzleSince: newest || undefined });
    } catch (err) {
      if (!(err instanceof SourceHttpError) || ![401, 403].includes(err.status)) throw err;
      summary.notes.push('puzzle activity needs a lichess token with the puzzle:read scope');
    }
  }
}
