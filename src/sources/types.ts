import type { z } from 'zod';
import type { games } from '../store/schema/games.js';
import type { ParsedMainline } from '../chess/pgn.js';
import type { StoredAnalysis } from '../chess/engineOutput.js';
import { request, type SourceClientOptions } from './http.js';

export { SourceHttpError, SourceRateLimited, SourceStalled, sourceFetch, type SourceClientOptions } from './http.js';

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
  pgn: { text: string; parsed: ParsedMainline; clocksSeconds?: Array<number | null> } | null;
  /** The source's own review of the game (lichess's server analysis), stored as its review with it; null or absent otherwise. */
  review?: StoredAnalysis | null;
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

/** Formats the first zod issue as `where: what` for a SourceFormatError. */
export function describeIssue(where: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.length ? issue.path.map(String).join('.') : '(root)';
  return `${where}: ${path}: ${issue?.message ?? 'unreadable'}`;
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

/**
 * Reads a JSON body of at most `maxBytes`: a larger declared Content-Length is refused before reading, and the
 * stream is cancelled as soon as the bytes read pass the cap (a body that does not say its length, or lies),
 * so an oversized answer never sits whole in memory. Both are SourceFormatErrors naming the request.
 */
export async function readJsonCapped(res: Response, what: string, maxBytes: number): Promise<unknown> {
  const tooLarge = () => new SourceFormatError(`${what}: the answer is larger than ${maxBytes} bytes`);
  // Cancelled without waiting: a cancel can wait on a read in flight, which only the idle timeout would end.
  if (Number(res.headers.get('content-length')) > maxBytes) {
    void res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        void reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new SourceFormatError(`${what}: the answer is not JSON`);
  }
}

/** A JSON GET through the polite client; a body that stalls half-way is fetched again. */
export function getJson(opts: SourceClientOptions, url: string, what: string, headers: Record<string, string> = {}): Promise<unknown> {
  return request(opts, url, what, { headers: { accept: 'application/json', ...headers } }, (res) => readJson(res, what));
}
