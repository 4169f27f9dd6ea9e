import type { z } from 'zod';
import type { AppDeps, User } from '../../context.js';
import type { SyncRuns } from './syncRuns.js';

export type SettingsMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a settings handler may touch: the app, the caller, and (for sign-in/out) the session cookie. */
export interface SettingsCtx {
  deps: AppDeps;
  /** The signed-in account; null only on routes with access 'public'. */
  user: User | null;
  /** The session making the request, when it came with the cookie rather than a bearer token. */
  sessionId: string | null;
  userAgent: string | null;
  /** This server's base URL (links, the Claude config). */
  baseUrl: string;
  /** The process's "sync now" runs. */
  syncRuns: SyncRuns;
  setSessionCookie(value: string): void;
  clearSessionCookie(): void;
}

/**
 * One settings operation. Like a tool definition, everything about it (route, validation, OpenAPI)
 * derives from this object; unlike a tool it is not listed in MCP: it manages the account itself.
 */
export interface SettingsRoute<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  operationId: string;
  summary: string;
  description: string;
  method: SettingsMethod;
  path: `/api/v1/settings${string}` | `/api/v1/prep${string}`;
  /** The OpenAPI tag (default `settings`; the preparation routes have their own, issue 29). */
  tag?: string;
  /** 'public': sign-in only; everything else needs a session or a bearer token. */
  access: 'public' | 'signed-in';
  input: I;
  output: O;
  /** The success status (201 created, 202 accepted, else 200). */
  status?: 200 | 201 | 202;
  /** The largest JSON body it reads, in bytes (default SETTINGS_BODY_LIMIT_BYTES, router.ts: 16 KB); more is a 413 naming it. */
  bodyLimit?: number;
  /** Error statuses it can answer, for the OpenAPI document. */
  errors: readonly number[];
  handler(ctx: SettingsCtx, input: z.infer<I>): z.infer<O> | Promise<z.infer<O>>;
}

export function defineSettingsRoute<I extends z.ZodType, O extends z.ZodType>(route: SettingsRoute<I, O>): SettingsRoute {
  return route as unknown as SettingsRoute;
}

/** The signed-in user, for handlers of 'signed-in' routes (the router has checked already). */
export function signedIn(ctx: SettingsCtx): User {
  if (!ctx.user) throw new Error('settings route reached without a signed-in user');
  return ctx.user;
}
