import { ecfGames, ecfPlayerPage, ecfRating } from '../../sources/ecf/client.js';
import { ECF_TYPES, ecfBudgetExhausted, parseEcfGames, parseEcfRating } from '../../sources/ecf/parse.js';
import { SourceHttpError, type SourceRecord } from '../../sources/types.js';
import { clientFor, type SourceSyncContext } from './types.js';
import { readCursor, storeBatch, storeRatingPoints } from './write.js';

export interface EcfCursor {
  /** First day of the newest month whose published ratings were read (YYYY-MM-01). */
  ratingsThrough: string;
}

// The games endpoint has no `since`: ask for the most recent N (cheap: ~10 ms of the daily budget).
const FIRST_LIMIT = 2000;
const LATER_LIMIT = 200;
// Monthly published ratings to walk back on the first sync (one ~1 ms request each).
const RATING_MONTHS_BACK = 24;

const monthStart = (d: Date, back: number) => {
  const x = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1));
  return x.toISOString().slice(0, 10);
};

export async function syncEcf(sc: SourceSyncContext): Promise<void> {
  const { deps, connection, opts, summary } = sc;
  const code = connection.externalId;
  const client = clientFor(sc, deps.config.sources.ecfUrl, 'ECF');
  const cursor = opts.full ? {} : readCursor<EcfCursor>(connection.cursor);
  const limit = cursor.ratingsThrough ? LATER_LIMIT : FIRST_LIMIT;

  // All three rating types are read and parsed before one write: a malformed answer stores nothing.
  const records: SourceRecord[] = [];
  for (const type of ECF_TYPES) {
    sc.progress(`${type.path} games`);
    const raw = await ecfGames(client, code, type, limit);
    const recs = parseEcfGames(raw, type, code, ecfPlayerPage(client, code));
    const exhausted = ecfBudgetExhausted(raw);
    if (exhausted) throw new SourceHttpError(429, exhausted);
    summary.fetched += recs.length;
    records.push(...recs);
  }

  const now = deps.clock.now();
  const points: Array<{ series: string; date: string; rating: number }> = [];
  for (const type of ECF_TYPES) {
    sc.progress(`${type.path} ratings`);
    for (let back = 0; back < RATING_MONTHS_BACK; back += 1) {
      const date = monthStart(now, back);
      if (cursor.ratingsThrough && date < cursor.ratingsThrough) break;
      const raw = await ecfRating(client, code, type, date);
      const rating = raw === null ? null : parseEcfRating(raw, `ECF ${type.letter} rating of ${code} on ${date}`);
      // Ratings are a nicety: stop reading them (keeping the games) when the day's budget runs low.
      if (raw !== null && ecfBudgetExhausted(raw)) {
        summary.notes.push('ECF daily budget nearly used: rating history will be completed by a later sync');
        break;
      }
      // The newest month may not be published yet; after that, a gap means the history starts here.
      if (rating === null) {
        if (back < 2) continue;
        break;
      }
      points.push({ series: type.timeClass, date, rating });
    }
  }
  storeBatch(sc, records, { ratingsThrough: monthStart(now, 0) });
  storeRatingPoints(sc, points);
}
