import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Limiter } from './limits/limiter.js';
import type { Runtime } from './runtime.js';
import type { Store } from './store/db.js';
import type { users } from './store/schema/index.js';

export type User = typeof users.$inferSelect;

/** Which facade a call came through, and the key public rate limits are counted under. */
export interface Caller {
  surface: 'rest' | 'mcp';
  /** REST: the client address (public tools are limited per caller); MCP: one shared key per family. */
  key: string;
  /** The origin the HTTP request reached (`http://host:port`); links in answers use it unless CFP_PUBLIC_URL is set. None over stdio. */
  origin?: string;
  /** MCP only: how the client reached us, so an auth failure can say what to fix (header or CFP_TOKEN). */
  transport?: 'http' | 'stdio';
}

/** Everything a handler may touch. Handlers never see express or MCP objects. */
export interface Ctx {
  user: User | null;
  store: Store;
  clock: Clock;
  config: Config;
  limiter: Limiter;
  runtime: Runtime;
  caller: Caller;
}

export interface PersonalCtx extends Ctx {
  user: User;
}

/** The parts of a context that live as long as the process. */
export type AppDeps = Omit<Ctx, 'user' | 'caller'>;

/**
 * The context of one call. Written out field by field: `{ ...deps, user, caller }` gives every such
 * object a hidden class of its own in V8 (a spread followed by more properties), which cost each
 * request some 0.7 KB of garbage and a map migration on the read path (issue 13's profile).
 */
export function callCtx(deps: AppDeps, user: User | null, caller: Caller): Ctx {
  return { user, store: deps.store, clock: deps.clock, config: deps.config, limiter: deps.limiter, runtime: deps.runtime, caller };
}
