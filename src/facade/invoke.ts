import type { z } from 'zod';
import type { AnyTool } from '../../tools/defineTool.js';
import { verifyToken } from '../auth/tokens.js';
import { callCtx, type AppDeps, type Caller, type Ctx, type User } from '../context.js';
import { ApiError, asApiError, describeIssues, Messages, Reply } from '../errors.js';
import { chargedBySurface } from '../limits/buckets.js';

export interface Outcome {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** The one 401 message, in the terms of the caller's transport. */
export function unauthorizedMessage(caller: Caller): string {
  return caller.transport === 'stdio' ? Messages.unauthorizedStdio : Messages.unauthorized;
}

/**
 * The one path every call takes, whichever facade it came through:
 * authenticate → personal bucket → validate (exactly once) → family bucket → handler.
 */
export async function invokeTool(
  tool: AnyTool,
  deps: AppDeps,
  caller: Caller,
  /** A bearer token to verify, or the user of a dashboard session the HTTP layer verified already. */
  token: string | undefined | { user: User },
  rawInput: unknown,
): Promise<Outcome> {
  try {
    let user = null;
    if (tool.access === 'personal') {
      user = typeof token === 'object' ? token.user : verifyToken(deps.store, token, deps.clock);
      if (!user) throw new ApiError(401, unauthorizedMessage(caller), { 'WWW-Authenticate': 'Bearer' });
      deps.limiter.take('personal', user.id);
    }
    const parsed = tool.input.safeParse(rawInput ?? {});
    if (!parsed.success) throw new ApiError(400, describeIssues(parsed.error));
    if (chargedBySurface(tool.family)) {
      deps.limiter.take(tool.family, tool.access === 'personal' ? user!.id : caller.key);
    }
    const ctx = callCtx(deps, user, caller);
    const result = await tool.handler(ctx as never, parsed.data);
    if (result instanceof Reply) return { status: result.status, body: result.body, headers: {} };
    return { status: 200, body: result, headers: {} };
  } catch (err) {
    const known = asApiError(err);
    if (known) return { status: known.status, body: { error: known.message }, headers: known.headers };
    // An unexpected fault: say so plainly, keep the details in the server log.
    console.error(`[${tool.name}]`, err);
    return { status: 500, body: { error: 'internal error; the server log has details' }, headers: {} };
  }
}
