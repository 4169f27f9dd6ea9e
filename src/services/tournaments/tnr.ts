import type { Caller } from '../../context.js';
import { ApiError } from '../../errors.js';

/** Any chess-results host: the bare domain, the s1/s2/s3 nodes, archive.… (CHESS-RESULTS.md A.1). */
const CHESS_RESULTS_HOST = /(^|\.)chess-results\.com$/i;
const DIGITS = /^\d{1,10}$/;

/**
 * The tournament number to read. REST takes digits only. MCP also takes a full chess-results URL
 * (http or https, any *.chess-results.com host), from which only the digits of `tnr…` in the path are
 * kept: the URL itself is never fetched, and nothing else the caller wrote reaches a request.
 */
export function resolveTnr(raw: string, surface: Caller['surface']): string {
  const s = raw.trim();
  if (DIGITS.test(s)) return s;
  if (surface !== 'mcp') {
    throw new ApiError(400, 'tnr: digits only (the chess-results tournament number, e.g. 1473782)');
  }
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw new ApiError(400, 'tnr: give the tournament number (digits) or a full chess-results.com tournament URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ApiError(400, 'tnr: only http(s) chess-results.com URLs are accepted');
  }
  if (!CHESS_RESULTS_HOST.test(url.hostname) || url.username || url.password) {
    throw new ApiError(400, 'tnr: only chess-results.com URLs are accepted');
  }
  const m = /\/tnr(\d{1,10})\.aspx$/i.exec(url.pathname);
  if (!m) throw new ApiError(400, 'tnr: the URL has no tournament number (expected …/tnr1234567.aspx)');
  return m[1];
}
