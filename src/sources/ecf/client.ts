import { getJson, SourceHttpError, type SourceClientOptions } from '../types.js';
import type { EcfType } from './parse.js';

/** The ECF API takes its path in the query string: `/v2/new/api.php?v2/{path}`. */
const api = (opts: SourceClientOptions, path: string) => `${opts.baseUrl}/v2/new/api.php?v2/${path}`;

/** The rating code without its check letter ("998877C" → "998877"): the API takes the digits. */
export function ecfDigits(code: string): string {
  return code.trim().replace(/[A-Za-z]$/, '');
}

/** The public player page a game row links to. */
export function ecfPlayerPage(opts: SourceClientOptions, code: string): string {
  return `${opts.baseUrl}/v2/new/player.php?ECF_code=${encodeURIComponent(code.trim().toUpperCase())}`;
}

export async function ecfGames(opts: SourceClientOptions, code: string, type: EcfType, limit: number): Promise<unknown> {
  const what = `ECF ${type.path} games of ${code}`;
  return getJson(opts, api(opts, `games/${type.path}/player/${ecfDigits(code)}/limit/${limit}`), what);
}

/** The rating effective on `date` (YYYY-MM-DD), or null when the ECF has none (404). */
export async function ecfRating(opts: SourceClientOptions, code: string, type: EcfType, date: string): Promise<unknown | null> {
  const what = `ECF ${type.letter} rating of ${code} on ${date}`;
  try {
    return await getJson(opts, api(opts, `ratings/${type.letter}/${ecfDigits(code)}/${date}`), what);
  } catch (err) {
    if (err instanceof SourceHttpError && err.status === 404) return null;
    throw err;
  }
}
