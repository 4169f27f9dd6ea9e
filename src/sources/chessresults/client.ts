import type { Clock } from '../../clock.js';
import { request, SourceHttpError, SourceRateLimited, SourceStalled, type PoliteSettings } from '../http.js';
import { CourtesyGate } from './courtesy.js';
import { SourceUnreadable } from './errors.js';

/** How long a fetched page is reused. Short: a live round changes by the minute. */
export const CACHE_TTL_MS = 60_000;
const CACHE_MAX_ENTRIES = 300;
const MAX_REDIRECTS = 5;
const MAX_BODY_BYTES = 5_000_000;
/**
 * A tool call waits on these pages, so a 429 is repeated once after a short wait at most; a site asking
 * for longer answers the fixed 502 at once (the caller can retry later).
 */
const TOOL_CALL_POLITENESS: Partial<PoliteSettings> = { maxRetries: 1, rateLimitWaitMs: 2_000, backoffFactor: 1, maxRetryAfterSeconds: 5 };

export type ChessResultsView =
  | { art: 0 } // starting rank
  | { art: 5 } // starting-rank crosstable
  | { art: 2; round: number } // pairings of one round
  | { art: 40 }; // not paired: every player's unpaired rounds (the page ignores rd=)

export interface FetchedPage {
  url: string;
  html: string;
  /** When this copy was fetched from the site (a cached copy keeps its original time). */
  fetchedAt: Date;
}

/** A page the site answered with 404. */
export interface MissingPage {
  url: string;
  html: null;
  fetchedAt: Date;
}

export interface ChessResultsClientOptions {
  baseUrl: string;
  userAgent: string;
  clock: Clock;
  gate?: CourtesyGate;
  cacheTtlMs?: number;
  /** Timeouts and waits of the polite client (defaults: its own; the runtime passes the config's timeouts). */
  polite?: Partial<PoliteSettings>;
  /** Where the detail of a failure goes (URLs, redirect targets): the server log, never the caller. */
  log?: (line: string) => void;
}

/**
 * The long-lived chess-results.com client: one per process (on Runtime), holding the courtesy cap and
 * the response cache. It only ever builds URLs from the configured base and a validated tnr (digits);
 * nothing a caller typed reaches a URL. Redirects are followed by hand, only within the configured host
 * (or its subdomains: the bare domain sends readers to s1/s2/s3 nodes), each hop counting against the cap.
 */
export class ChessResultsClient {
  readonly base: URL;
  readonly gate: CourtesyGate;
  private readonly cache = new Map<string, FetchedPage | MissingPage>();
  private readonly pending = new Map<string, Promise<FetchedPage | MissingPage>>();
  /** Pages actually requested from the site (not served from cache); for tests and diagnostics. */
  fetchCount = 0;

  constructor(private readonly opts: ChessResultsClientOptions) {
    this.base = new URL(opts.baseUrl);
    this.gate = opts.gate ?? new CourtesyGate();
  }

  urlFor(tnr: string, view: ChessResultsView): string {
    if (!/^\d{1,10}$/.test(tnr)) throw new Error(`tnr must be validated digits before a URL is built (got ${JSON.stringify(tnr)})`);
    const root = this.base.href.replace(/\/+$/, '');
    const rd = view.art === 2 ? `&rd=${view.round}` : '';
    return `${root}/tnr${tnr}.aspx?lan=1&art=${view.art}${rd}&zeilen=99999&turdet=YES`;
  }

  /** The page, from the cache when younger than the TTL; concurrent asks for one URL share one fetch. */
  async page(tnr: string, view: ChessResultsView): Promise<FetchedPage> {
    const page = await this.pageIfAny(tnr, view);
    if (page.html === null) throw this.unreadable('HTTP 404', this.urlFor(tnr, view));
    return page as FetchedPage;
  }

  /**
   * Like page, but a 404 (a round page that does not exist yet) is an answer, `html: null`, cached like a
   * page, rather than the 502: only the round to pair is asked for this way (its absences, if published).
   */
  async pageIfAny(tnr: string, view: ChessResultsView): Promise<FetchedPage | MissingPage> {
    const url = this.urlFor(tnr, view);
    const hit = this.cache.get(url);
    const ttl = this.opts.cacheTtlMs ?? CACHE_TTL_MS;
    if (hit && this.opts.clock.now().getTime() - hit.fetchedAt.getTime() < ttl) return hit;
    const inFlight = this.pending.get(url);
    if (inFlight) return inFlight;
    const p = this.fetchFollowing(url).finally(() => this.pending.delete(url));
    this.pending.set(url, p);
    const page = await p;
    this.remember(url, page);
    return page;
  }

  private remember(url: string, page: FetchedPage | MissingPage): void {
    this.cache.delete(url);
    this.cache.set(url, page);
    while (this.cache.size > CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
  }

  private allowedHost(u: URL): boolean {
    const host = this.base.hostname.toLowerCase();
    const h = u.hostname.toLowerCase();
    const sameOrSub = h === host || h.endsWith(`.${host}`);
    return sameOrSub && u.port === this.base.port && (u.protocol === 'https:' || u.protocol === 'http:');
  }

  /**
   * The fixed 502 for the caller, with a reason that names no URL; the detail (URLs, redirect targets,
   * the underlying error) goes to the server log only.
   */
  /** `unreachable`: the site was not read at all, said as it is; otherwise what it answered did not read as a tournament page. */
  private unreadable(reason: string, detail: string, kind: 'unreachable' | 'answer' = 'answer'): SourceUnreadable {
    (this.opts.log ?? ((l: string) => console.error(l)))(`[chess-results] ${reason}: ${detail}`);
    return new SourceUnreadable(kind === 'unreachable' ? reason : `fetch failed: ${reason}`);
  }

  private async fetchFollowing(first: string): Promise<FetchedPage | MissingPage> {
    let url = first;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const res = await this.gate.run(() => this.fetchOnce(url));
      if (res.status >= 300 && res.status < 400) {
        if (!res.location) throw this.unreadable('a redirect without a Location', url);
        let next: URL;
        try {
          next = new URL(res.location, url);
        } catch {
          throw this.unreadable('a redirect to an unreadable Location', `${url} → ${JSON.stringify(res.location)}`);
        }
        if (!this.allowedHost(next)) throw this.unreadable('redirected off the configured host', `${url} → ${next.href}`);
        url = next.href;
        continue;
      }
      if (res.status === 404) return { url, html: null, fetchedAt: this.opts.clock.now() };
      if (res.status !== 200) throw this.unreadable(`chess-results answered HTTP ${res.status}; try again later`, url, 'unreachable');
      return { url, html: res.body, fetchedAt: this.opts.clock.now() };
    }
    throw this.unreadable(`more than ${MAX_REDIRECTS} redirects`, first);
  }

  /** One request through the polite client, body included, so the courtesy gate covers the whole exchange. */
  private async fetchOnce(url: string): Promise<{ status: number; location: string | null; body: string }> {
    this.fetchCount += 1;
    const opts = { baseUrl: this.base.href, userAgent: this.opts.userAgent, polite: { ...TOOL_CALL_POLITENESS, ...this.opts.polite } };
    try {
      return await request(opts, url, 'chess-results page', { headers: { accept: 'text/html' }, redirect: 'manual', accept: () => true }, async (res) => {
        const buf = await res.arrayBuffer();
        if (buf.byteLength > MAX_BODY_BYTES) throw this.unreadable(`a page over ${MAX_BODY_BYTES} bytes`, url);
        return { status: res.status, location: res.headers.get('location'), body: new TextDecoder('utf-8').decode(buf) };
      });
    } catch (err) {
      if (err instanceof SourceUnreadable) throw err;
      // In a player's words, and apart from a changed page (issue 45: offline read as "page layout changed or
      // fetch failed: … the connection failed"): whether the site was reached at all is what a player can act on.
      const reason =
        err instanceof SourceRateLimited
          ? 'chess-results kept refusing requests (429); try again in a few minutes'
          : err instanceof SourceStalled
            ? 'chess-results did not answer (the site may be down or slow); try again later'
            : err instanceof SourceHttpError
              ? `chess-results answered HTTP ${err.status}; try again later`
              : 'chess-results could not be reached (is this machine offline?); nothing was read, try again once connected';
      throw this.unreadable(reason, `${url}: ${err instanceof Error ? err.message : String(err)}`, 'unreachable');
    }
  }
}
