
import { request } from '../http.js';
import { describeIssue, getJson, readJson, SourceFormatError, type SourceClientOptions } from '../types.js';
import { ArchivesList, MonthArchive } from './parse.js';

const player = (u: string) => `/pub/player/${encodeURIComponent(u.toLowerCase())}`;

/** Month keys ("2025/03") of the player's archives, ascending; months without games are absent. */
export async function archiveMonths(opts: SourceClientOptions, username: string): Promise<string[]> {
  const what = `chess.com archives of ${username}`;
  const r = ArchivesList.safeParse(await getJson(opts, `${opts.baseUrl}${player(username)}/games/archives`, what));
  if (!r.success) throw new SourceFormatError(describeIssue(what, r.error));
  return r.data.archives.map((u) => {
    const m = /(\d{4})\/(\d{2})\/?$/.exec(u);
    if (!m) throw new SourceFormatError(`${what}: "${u}" is not a monthly archive URL`);
    return `${m[1]}/${m[2]}`;
  });
}

export interface MonthValidator {
  etag?: string | null;
  lastModified?: string | null;
}

/**
 * One monthly archive, revalidated with If-None-Match / If-Modified-Since: `null` games means 304
 * (unchanged since the validator was stored).
 */
export async function fetchMonth(
  opts: SourceClientOptions,
  username: string,
  month: string,
  validator: MonthValidator | null,
): Promise<{ games: unknown[] | null; etag: string | null; lastModified: string | null }> {
  const what = `chess.com archive ${month}`;
  const headers: Record<string, string> = {};
  if (validator?.etag) headers['if-none-match'] = validator.etag;
  if (validator?.lastModified) headers['if-modified-since'] = validator.lastModified;
  return request(opts, `${opts.baseUrl}${player(username)}/games/${month}`, what, { headers }, async (res) => {
    if (res.status === 304) {
      await res.body?.cancel();
      return { games: null, etag: validator?.etag ?? null, lastModified: validator?.lastModified ?? null };
    }
    const r = MonthArchive.safeParse(await readJson(res, what));
    if (!r.success) throw new SourceFormatError(describeIssue(what, r.error));
    return { games: r.data.games, etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') };
  });
}

export async function playerStats(opts: SourceClientOptions, username: string): Promise<unknown> {
  const what = `chess.com stats of ${username}`;
  return getJson(opts, `${opts.baseUrl}${player(username)}/stats`, what);
}

