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

/** prompts/get: validates the arguments with the prompt's schema and renders one user message. */
export function renderPrompt(p: PromptDefinition, rawArgs: Record<string, string> | undefined): GetPromptResult {
  const parsed = p.arguments.strict().safeParse(rawArgs ?? {});
  if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, `${p.name}: ${describeIssues(parsed.error)}`);
  return {
    description: p.description,
    messages: [{ role: 'user', content: { type: 'text', text: p.render(parsed.data) } }],
  };
}

export function registerPrompts(server: Server, list: readonly PromptDefinition[] = prompts): void {
  const byName = new Map(list.map((p) => [p.name, p]));
  const listing = list.map(promptListing);
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: listing }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const p = byName.get(request.params.name);
    if (!p) throw new RpcError(ErrorCode.InvalidParams, `no prompt named ${request.params.name}; call prompts/list`);
    return renderPrompt(p, request.params.arguments);
  });
}
