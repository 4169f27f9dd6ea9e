import type { z } from 'zod';
import { isStoreBusy } from './store/busy.js';

/**
 * The one error type every layer throws. Facades map it to `{error}` with its status
 * (REST) or to an `isError` tool result carrying the same body (MCP).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A successful answer whose status is not 200 (a queued review answers 202). */
export class Reply<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

/** Fixed messages: the spec wants identical text whatever the cause, so nothing leaks. */
export const Messages = {
  unauthorized: 'missing, invalid or revoked token: send Authorization: Bearer cfp_… (see /auth.md)',
  /** Over stdio there is no header to send: the token is the server's environment. */
  unauthorizedStdio:
    'missing, invalid or revoked token: set CFP_TOKEN in the environment this MCP server is started with (the "env" of its entry in the client config) to a token from `chess-footprint token create`, then restart it',
  gameNotFound: 'no owned game with that id; call list_games for ids',
  limiterUnavailable: 'the rate limiter is unavailable, so this endpoint refuses to run unbounded; try again shortly',
  storeBusy: 'the store is busy with another process\'s write (a sync, import or review beside this server); nothing was changed: try again shortly',
} as const;

/** A tool whose capability is not built yet answers this, never invented data. */
export function notAvailableYet(what: string): ApiError {
  return new ApiError(501, `${what} is not available yet`);
}

export function rateLimited(retryAfterSeconds: number, bucket: string): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiError(429, `rate limit reached (${bucket}); retry after ${seconds} s`, {
    'Retry-After': String(seconds),
  });
}

/**
 * The ApiError an error answers as: itself, or 503 + Retry-After for a store lock another process
 * held past the serving wait (src/store/busy.ts); null for an unexpected fault (a 500).
 */
export function asApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (isStoreBusy(err)) return new ApiError(503, Messages.storeBusy, { 'Retry-After': '1' });
  return null;
}

/** "`field`: message" for the first few issues, so the caller knows which input to fix. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => {
      const path = i.path.length ? i.path.join('.') : 'input';
      if (i.code === 'unrecognized_keys') return `unexpected field(s): ${i.keys.join(', ')}`;
      return `${path}: ${i.message}`;
    })
    .join('; ');
}
