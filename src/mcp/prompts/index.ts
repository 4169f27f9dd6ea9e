import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  type GetPromptResult,
} from '@modelcontextprotocol/sdk/types.js';
import { RpcError } from '../rpcError.js';
import { describeIssues } from '../../errors.js';
import { prompts, type PromptDefinition } from '../../../tools/prompts.js';
import { promptListing } from '../../../tools/listing.js';
import { ownerCtx, rpcErrorOf, type McpSession } from '../owner.js';

/**
 * prompts/get: validates the arguments with the prompt's schema and renders it: one user message, or for a
 * prompt that carries the owner's data, the instructions then one message per embedded resource.
 */
export async function renderPrompt(p: PromptDefinition, rawArgs: Record<string, string> | undefined, session: McpSession): Promise<GetPromptResult> {
  const parsed = p.arguments.strict().safeParse(rawArgs ?? {});
  if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, `${p.name}: ${describeIssues(parsed.error)}`);
  try {
    const rendered = await p.render(parsed.data, p.personal ? ownerCtx(session) : null);
    const parts = typeof rendered === 'string' ? [{ type: 'text' as const, text: rendered }] : rendered;
    return { description: p.description, messages: parts.map((content) => ({ role: 'user' as const, content })) };
  } catch (err) {
    throw rpcErrorOf(err, 'prompts/get');
  }
}

export function registerPrompts(server: Server, session: McpSession, list: readonly PromptDefinition[] = prompts): void {
  const byName = new Map(list.map((p) => [p.name, p]));
  const listing = list.map(promptListing);
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: listing }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const p = byName.get(request.params.name);
    if (!p) throw new RpcError(ErrorCode.InvalidParams, `no prompt named ${request.params.name}; call prompts/list`);
    return renderPrompt(p, request.params.arguments, session);
  });
}
