/**
 * The one HTTP client every request to every source goes through (chess.com, lichess, ECF,
 * chess-results). It is polite and bounded:
 * - a connect timeout (no response headers within `connectTimeoutMs`) and an idle timeout (no body bytes
 *   for `idleTimeoutMs`), so a silent server can never hold a sync or a tool call for ever;
 * - on 429 it waits `Retry-After` (never less than the source's own minimum: lichess asks for a full
 *   minute, https://lichess.org/api "Rate limiting") and repeats the refused request, at most
 *   `maxRetries` times; a source that keeps refusing, or asks for a longer wait than
 *   `maxRetryAfterSeconds`, gets SourceRateLimited, which ends that source's sync with what was stored;
 * - a request that failed before any answer (reset, refused, connect timeout) or stalled while its body
 *   was read by `request()` is repeated the same bounded number of times. A stream handed to the caller
 *   (`sourceFetch`) that stalls fails with SourceStalled, and the caller resumes from its cursor.
 * Waits go through `sleep`, so tests replace a minute with nothing.
 */

export interface PoliteSettings {
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  maxRetries: number;
  maxRetryAfterSeconds: number;
  /** Least wait after a 429 (and the first back-off step when the answer names none). */
  rateLimitWaitMs: number;
  /** Each further 429 waits this many times longer (1: always the minimum). */
  backoffFactor: number;
  sleep: (ms: number) => Promise<void>;
  /** Told about each wait, for the sync summary's notes. */
  onWait?: (event: { what: string; reason: 'rate-limited' | 'stalled' | 'unreachable'; waitMs: number }) => void;
}

export const DEFAULT_POLITE: PoliteSettings = {
  connectTimeoutMs: 15_000,
  idleTimeoutMs: 60_000,
  maxRetries: 4,
  maxRetryAfterSeconds: 900,
  rateLimitWaitMs: 5_000,
  backoffFactor: 2,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** After a failure before any answer, the first wait before repeating (doubling each time). */
const UNREACHABLE_WAIT_MS = 1_000;

export interface SourceClientOptions {
  baseUrl: string;
  userAgent: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  polite?: Partial<PoliteSettings>;
}

/** A non-success HTTP answer (429 has its own class). */
export class SourceHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SourceHttpError';
  }
}

/** The source kept answering 429 (or asked for a wait longer than we honour): this sync of it stops. */
export class SourceRateLimited extends Error {
  constructor(
    readonly retryAfterSeconds: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'SourceRateLimited';
  }
}

/** No answer within the connect timeout, or silence inside a body past the idle timeout. */
export class SourceStalled extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceStalled';
  }
}

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const t = header.trim();
  if (/^\d+$/.test(t)) return Number(t);
  const at = Date.parse(t);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : null;
}

/** A body that fails with SourceStalled (and aborts the request) when no bytes come for `ms`. */
function watchIdle(body: ReadableStream<Uint8Array>, ms: number, what: string, abort: (e: Error) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      let timer: NodeJS.Timeout | undefined;
      const silence = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new SourceStalled(`${what}: no data for ${Math.round(ms / 1000)} s (stalled)`)), ms);
      });
      try {
        const r = await Promise.race([reader.read(), silence]);
        if (r.done) ctrl.close();
        else ctrl.enqueue(r.value);
      } catch (err) {
        if (err instanceof SourceStalled) abort(err);
        reader.cancel(err).catch(() => undefined);
        ctrl.error(err);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A failure before or while reading an answer that is worth one more try (not a refusal or a format error). */
function isTransient(err: unknown, callerSignal?: AbortSignal): boolean {
  if (callerSignal?.aborted) return false;
  if (err instanceof SourceStalled) return true;
  if (err instanceof SourceHttpError || err instanceof SourceRateLimited) return false;
  const e = err as { name?: string; message?: string; cause?: { code?: string } };
  return e?.name === 'TypeError' || /terminated|ECONNRESET|socket|fetch failed|premature/i.test(String(e?.message)) || !!e?.cause?.code;
}

export interface RequestInit {
  headers?: Record<string, string>;
  /** `manual` hands 3xx answers back (chess-results follows them by hand, within its host). */
  redirect?: 'follow' | 'manual';
  /** Statuses returned to `read` instead of thrown (default: 2xx and 304). */
  accept?: (status: number) => boolean;
}

/**
 * One request, repeated politely: `read` consumes the answer inside the retry loop, so a body that stalls
 * half-way is fetched again whole. Throws SourceHttpError / SourceRateLimited / SourceStalled.
 */
export async function request<T>(opts: SourceClientOptions, url: string, what: string, init: RequestInit, read: (res: Response) => Promise<T>): Promise<T> {
  const p: PoliteSettings = { ...DEFAULT_POLITE, ...opts.polite };
  const accept = init.accept ?? ((s: number) => (s >= 200 && s < 300) || s === 304);
  let refusals = 0;
  for (let attempt = 0; ; attempt += 1) {
    const controller = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, controller.signal]) : controller.signal;
    const connect = setTimeout(() => controller.abort(new SourceStalled(`${what}: no answer within ${Math.round(p.connectTimeoutMs / 1000)} s`)), p.connectTimeoutMs);
    let res: Response;
    try {
      res = await (opts.fetch ?? fetch)(url, { headers: { 'user-agent': opts.userAgent, ...init.headers }, redirect: init.redirect ?? 'follow', signal });
    } catch (err) {
      clearTimeout(connect);
      const cause = controller.signal.aborted ? controller.signal.reason : err;
      if (!isTransient(cause, opts.signal) || attempt >= p.maxRetries) throw cause;
      const waitMs = UNREACHABLE_WAIT_MS * 2 ** attempt;
      p.onWait?.({ what, reason: cause instanceof SourceStalled ? 'stalled' : 'unreachable', waitMs });
      await p.sleep(waitMs);
      continue;
    }
    clearTimeout(connect);

    if (res.status === 429) {
      await res.body?.cancel();
      const asked = retryAfterSeconds(res.headers.get('retry-after'));
      const waitMs = Math.max((asked ?? 0) * 1000, p.rateLimitWaitMs * p.backoffFactor ** refusals);
      refusals += 1;
      if (refusals > p.maxRetries) throw new SourceRateLimited(asked, `${what}: still refused (429) after ${p.maxRetries} retries`);
      if (waitMs > p.maxRetryAfterSeconds * 1000) throw new SourceRateLimited(asked, `${what}: refused (429) with a wait of ${Math.ceil(waitMs / 1000)} s, longer than the ${p.maxRetryAfterSeconds} s honoured`);
      p.onWait?.({ what, reason: 'rate-limited', waitMs });
      await p.sleep(waitMs);
      attempt -= 1; // a refusal is counted by `refusals`, not as a failed attempt
      continue;
    }
    if (!accept(res.status)) {
      await res.body?.cancel();
      throw new SourceHttpError(res.status, `${what}: HTTP ${res.status}`);
    }
    const body = res.body ? watchIdle(res.body, p.idleTimeoutMs, what, (e) => controller.abort(e)) : null;
    const watched = body ? new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers }) : res;
    try {
      return await read(watched);
    } catch (err) {
      if (!isTransient(err, opts.signal) || attempt >= p.maxRetries) throw err;
      const waitMs = UNREACHABLE_WAIT_MS * 2 ** attempt;
      p.onWait?.({ what, reason: err instanceof SourceStalled ? 'stalled' : 'unreachable', waitMs });
      await p.sleep(waitMs);
    }
  }
}

/** The answer with its body still to read (streams): the body fails with SourceStalled when it goes silent. */
export function sourceFetch(opts: SourceClientOptions, url: string, what: string, headers: Record<string, string> = {}): Promise<Response> {
  return request(opts, url, what, { headers }, async (res) => res);
}
