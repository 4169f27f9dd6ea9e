import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { verifyToken } from '../auth/tokens.js';
import { callCtx, type AppDeps, type Caller, type PersonalCtx } from '../context.js';
import { ApiError, asApiError } from '../errors.js';
import { unauthorizedMessage } from '../facade/invoke.js';
import { RpcError } from './rpcError.js';

/** The MCP session's three things every owner-scoped read needs. */
export interface McpSession {
  deps: AppDeps;
  caller: Caller;
  token: string | undefined;
}

/**
 * The owner's context for a read outside tools/call (a resource, a prompt's data, a completion), with the
 * rules a personal tool call has: the token verified, the owner's personal bucket charged.
 */
export function ownerCtx({ deps, caller, token }: McpSession): PersonalCtx {
  const user = verifyToken(deps.store, token);
  if (!user) throw new ApiError(401, unauthorizedMessage(caller));
  deps.limiter.take('personal', user.id);
  return callCtx(deps, user, caller) as PersonalCtx;
}

/**
 * A fault in a prompts/get or completion/complete, as the JSON-RPC error its caller gets: what the caller
 * can fix (an argument, an unknown game) is InvalidParams, the rest (token, limits) InvalidRequest with the
 * service's own message; anything else is logged and answered without detail.
 */
export function rpcErrorOf(err: unknown, where: string): RpcError {
  if (err instanceof RpcError) return err;
  const known = asApiError(err);
  if (known) return new RpcError(known.status === 400 || known.status === 404 ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest, known.message);
  console.error(`[${where}]`, err);
  return new RpcError(ErrorCode.InternalError, 'internal error; the server log has details');
}
