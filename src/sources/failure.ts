import { SourceFormatError, SourceHttpError, SourceRateLimited, SourceStalled } from './types.js';
import type { connections } from '../store/schema/accounts.js';

type SyncedSource = (typeof connections.$inferSelect)['provider'];

/** The sites the sync and the scout fetch from, as a player names them. */
export const SOURCE_NAMES = { siteA: 'chess.com', siteB: 'lichess', fed: 'ECF' } as const satisfies Record<SyncedSource, string>;

/** Who or what a failed fetch was for, in the words its message uses. */
export interface FetchPurpose {
  /** What the site was asked about: `account` (the sync), `player` (the scout). */
  subject: string;
  /** The fetch's name in "kept rate-limiting the …". */
  activity: string;
  /** What becomes of the work done before the failure. */
  afterwards: string;
}

/**
 * What a failed fetch says, in words a player can act on: which site, what kind of failure (the site
 * does not know the name, answered an error, sent what we cannot read, throttled us, went quiet, or
 * could not be reached), and what happens to what was already stored. The sync and the scout both
 * store this on their rows, so one wording serves both.
 */
export function describeSourceFailure(provider: SyncedSource, err: unknown, purpose: FetchPurpose): string {
  const name = SOURCE_NAMES[provider];
  if (err instanceof SourceFormatError) return `${name} sent data that did not parse: ${err.message}`;
  if (err instanceof SourceHttpError) {
    if (err.status === 404) return `${name} does not know this ${purpose.subject} (HTTP 404): ${err.message}`;
    return `${name} answered an error: ${err.message}`;
  }
  if (err instanceof SourceRateLimited) return `${name} kept rate-limiting the ${purpose.activity}; ${purpose.afterwards} (${err.message})`;
  if (err instanceof SourceStalled) return `${name} stopped answering; ${purpose.afterwards} (${err.message})`;
  // fetch() hides the network's reason (ECONNREFUSED, ENOTFOUND…) in `cause`.
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message;
  return `${name} could not be reached: ${err instanceof Error ? err.message : String(err)}${detail ? ` (${detail})` : ''}`;
}

/**
 * Whether a failed fetch is ours rather than the site's: not one of the sources' errors (Source…) nor fetch()'s
 * TypeError for a network that failed. The scout and the peers' fetch log these, which a player's message hides.
 */
export function isOwnFailure(err: unknown): boolean {
  return !(err instanceof Error) || !/^Source|TypeError/.test(err.name);
}
