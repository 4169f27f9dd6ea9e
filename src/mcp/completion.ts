import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema, ErrorCode, type CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { verifyToken } from '../auth/tokens.js';
import { MAX_VALUES, promptCompletions, resourceCompletions, type Completer } from '../../tools/completions.js';
import { prompts } from '../../tools/prompts.js';
import { resourceDefinitions } from '../../tools/resources.js';
import { ownerCtx, rpcErrorOf, type McpSession } from './owner.js';
import { RpcError } from './rpcError.js';

/**
 * completion/complete (issue 43). An unknown prompt or template is an error, as prompts/get's; an argument
 * with no natural list answers no values. Values from the owner's data need their token (charged as a
 * personal read); without one they are empty, never another owner's.
 */
export async function complete(session: McpSession, params: { ref: { type: string; name?: string; uri?: string }; argument: { name: string; value: string }; context?: { arguments?: Record<string, string> } }): Promise<CompleteResult> {
  const { ref, argument } = params;
  let table: Readonly<Record<string, Completer>> | undefined;
  if (ref.type === 'ref/prompt') {
    if (!prompts.some((p) => p.name === ref.name)) throw new RpcError(ErrorCode.InvalidParams, `no prompt named ${ref.name}; call prompts/list`);
    table = promptCompletions[ref.name!];
  } else {
    if (!resourceDefinitions.some((d) => d.template.uriTemplate === ref.uri)) throw new RpcError(ErrorCode.InvalidParams, `no resource template ${ref.uri}; call resources/templates/list`);
    table = resourceCompletions[ref.uri!];
  }
  const completer = table?.[argument.name];
  if (!completer) return { completion: { values: [], total: 0, hasMore: false } };
  try {
    // Without a token a personal list is empty rather than an error: a client asks on every keystroke.
    const owner = completer.personal && verifyToken(session.deps.store, session.token) ? ownerCtx(session) : null;
    const all = completer.values(argument.value, params.context?.arguments ?? {}, owner);
    return { completion: { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: all.length > MAX_VALUES } };
  } catch (err) {
    throw rpcErrorOf(err, 'completion/complete');
  }
}

export function registerCompletion(server: Server, session: McpSession): void {
  server.setRequestHandler(CompleteRequestSchema, async (request) => complete(session, request.params));
}
