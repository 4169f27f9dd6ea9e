import { request } from '../http.js';
import { getJson, sourceFetch, SourceFormatError, type SourceClientOptions } from '../types.js';
import { readLines } from './ndjson.js';

export interface LichessOptions extends SourceClientOptions {
  /** Personal API token: lifts the export throttle, and is required for rating history and puzzle activity. */
  token?: string | null;
}

/** What every lichess request sends: the answer's type, and the owner's token when they gave one (the explorer's too). */
export function lichessHeaders(opts: LichessOptions, accept: string): Record<string, string> {
  return { accept, ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) };
}

/**
 * The user's finished games, oldest first from `since` (createdAt ms, inclusive), one parsed JSON
 * object at a time. Oldest-first makes an interrupted stream resumable from the last stored game;
 * the flags lichess leaves off by default on this endpoint are turned on explicitly.
 */
export async function* exportGames(
  opts: LichessOptions,
  username: string,
  since: number | null,
  window: { max?: number; newestFirst?: boolean } = {},
): AsyncGenerator<unknown> {
  const q = new URLSearchParams({
    // A scout (src/services/prep) asks for the newest `max` games instead: lichess's `max` counts from the sort's start.
    sort: window.newestFirst ? 'dateDesc' : 'dateAsc',
    moves: 'true',
    tags: 'true',
    clocks: 'true',
    evals: 'true',
    opening: 'true',
    accuracy: 'true',
    pgnInJson: 'true',
    finished: 'true',
    // In-progress games come too (skipped as unfinished): the sync notes them so it can come back for them.
    ongoing: 'true',
  });
  if (since !== null) q.set('since', String(since));
  if (window.max !== undefined) q.set('max', String(window.max));
  const url = `${opts.baseUrl}/api/games/user/${encodeURIComponent(username)}?${q}`;
  const res = await sourceFetch(opts, url, `lichess export of ${username}`, lichessHeaders(opts, 'application/x-ndjson'));
  if (!res.body) return;
  let n = 0;
  for await (const line of readLines(res.body)) {
    n += 1;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      throw new SourceFormatError(`lichess export of ${username}: line ${n} is not JSON`);
    }
    yield obj;
  }
}

export async function ratingHistory(opts: LichessOptions, username: string): Promise<unknown> {
  const what = `lichess rating history of ${username}`;
  return getJson(opts, `${opts.baseUrl}/api/user/${encodeURIComponent(username)}/rating-history`, what, lichessHeaders(opts, 'application/json'));
}

/** The public user document: current perfs (`perfs.{blitz,…}.{games,rating,rd,prog,prov}`), counts, profile. */
export async function userPublic(opts: LichessOptions, username: string): Promise<unknown> {
  const what = `lichess profile of ${username}`;
  return getJson(opts, `${opts.baseUrl}/api/user/${encodeURIComponent(username)}`, what, lichessHeaders(opts, 'application/json'));
}

/**
 * Puzzle activity (token with puzzle:read), newest first, from `since` ms: read whole inside the polite
 * client, so a stalled answer is asked again (it is small: only attempts since the last sync).
 */
export async function puzzleActivity(opts: LichessOptions, since: number | null): Promise<unknown[]> {
  const q = new URLSearchParams();
  if (since !== null) q.set('since', String(since));
  const what = 'lichess puzzle activity';
  return request(opts, `${opts.baseUrl}/api/puzzle/activity?${q}`, what, { headers: lichessHeaders(opts, 'application/x-ndjson') }, async (res) => {
    const out: unknown[] = [];
    if (!res.body) return out;
    for await (const line of readLines(res.body)) {
      try {
        out.push(JSON.parse(line));
      } catch {
        throw new SourceFormatError(`${what}: line ${out.length + 1} is not JSON`);
      }
    }
    return out;
  });
}
