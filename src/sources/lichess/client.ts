import { readJson, sourceFetch, SourceFormatError, type SourceClientOptions } from '../types.js';
import { readLines } from './ndjson.js';

export interface LichessOptions extends SourceClientOptions {
  /** Personal API token: lifts the export throttle, and is required for rating history and puzzle activity. */
  token?: string | null;
}

function headers(opts: LichessOptions, accept: string): Record<string, string> {
  return { accept, ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) };
}

/**
 * The user's finished games, oldest first from `since` (createdAt ms, inclusive), one parsed JSON
 * object at a time. Oldest-first makes an interrupted stream resumable from the last stored game;
 * the flags lichess leaves off by default on this endpoint are turned on explicitly.
 */
export async function* exportGames(opts: LichessOptions, username: string, since: number | null): AsyncGenerator<unknown> {
  const q = new URLSearchParams({
    sort: 'dateAsc',
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
  const url = `${opts.baseUrl}/api/games/user/${encodeURIComponent(username)}?${q}`;
  const res = await sourceFetch(opts, url, `lichess export of ${username}`, headers(opts, 'application/x-ndjson'));
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
  const res = await sourceFetch(opts, `${opts.baseUrl}/api/user/${encodeURIComponent(username)}/rating-history`, what, headers(opts, 'application/json'));
  return readJson(res, what);
}

/** Puzzle activity (token with puzzle:read), newest first, from `since` ms. */
export async function* puzzleActivity(opts: LichessOptions, since: number | null): AsyncGenerator<unknown> {
  const q = new URLSearchParams();
  if (since !== null) q.set('since', String(since));
  const res = await sourceFetch(opts, `${opts.baseUrl}/api/puzzle/activity?${q}`, 'lichess puzzle activity', headers(opts, 'application/x-ndjson'));
  if (!res.body) return;
  let n = 0;
  for await (const line of readLines(res.body)) {
    n += 1;
    try {
      yield JSON.parse(line);
    } catch {
      throw new SourceFormatError(`lichess puzzle activity: line ${n} is not JSON`);
    }
  }
}
