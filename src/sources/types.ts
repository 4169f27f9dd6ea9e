import type { z } from 'zod';
import type { games } from '../store/schema/games.js';
import type { ParsedGame } from '../chess/pgn.js';

/**
 * A game row as a source client produces it: everything but the owner, the store's bookkeeping and the
 * move-derived columns (the sync service derives those from `parsed` with gameWriter.movesColumns).
 */
export type SourceGame = Omit<
  typeof games.$inferInsert,
  'id' | 'userId' | 'createdAt' | 'version' | 'reviewAccuracy' | 'sanMoves' | 'movesSource' | 'movesKey' | 'pgnHash' | 'clocks'
>;

/** One parsed game: the row fields, and the PGN (text + replayed mainline) when the source has moves. */
export interface SourceRecord {
  game: SourceGame;
  pgn: { text: string; parsed: ParsedGame; clocksSeconds?: Array<number | null> } | null;
}

/** A record the source sent that is not stored, with the reason it is counted under. */
export interface SourceSkip {
  skip: 'variant' | 'aborted' | 'unfinished' | 'not-owner';
  sourceId: string;
}

/** The source answered something we cannot read: the connection fails loudly, naming what. */
export class SourceFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceFormatError';
  }
}

/** A non-success HTTP answer (429 has its own class: callers wait and resume). */
export class SourceHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SourceHttpError';
  }
}

export class SourceRateLimited extends Error {
  constructor(
    readonly retryAfterSeconds: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'SourceRateLimited';
  }
}

/** Formats the first zod issue as `where: what` for a SourceFormatError. */
export function describeIssue(where: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.length ? issue.path.map(String).join('.') : '(root)';
  return `${where}: ${path}: ${issue?.message ?? 'unreadable'}`;
}

export interface SourceClientOptions {
  baseUrl: string;
  userAgent: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/** Common request: User-Agent always, JSON unless told otherwise; 429 and other failures become typed errors. */
export async function sourceFetch(
  opts: SourceClientOptions,
  url: string,
  what: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init = { headers: { 'user-agent': opts.userAgent, ...headers }, signal: opts.signal };
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, init);
  } catch (err) {
    // A kept-alive socket the server closed while we were busy parsing: one fresh attempt (GETs are idempotent).
    if (opts.signal?.aborted) throw err;
    res = await (opts.fetch ?? fetch)(url, init);
  }
  if (res.status === 429) {
    const ra = Number(res.headers.get('retry-after'));
    await res.body?.cancel();
    throw new SourceRateLimited(Number.isFinite(ra) && ra > 0 ? ra : null, `${what}: rate limited (429)`);
  }
  if (!res.ok && res.status !== 304) {
    await res.body?.cancel();
    throw new SourceHttpError(res.status, `${what}: HTTP ${res.status}`);
  }
  return res;
}

/** Reads a JSON body, turning a syntax error into a SourceFormatError naming the request. */
export async function readJson(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new SourceFormatError(`${what}: the answer is not JSON`);
  }
}
