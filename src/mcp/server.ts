import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../../tools/defineTool.js';
import type { AppDeps, Caller } from '../context.js';
import { invokeTool } from '../facade/invoke.js';
import { packageJson } from '../paths.js';
import { SERVER_INSTRUCTIONS } from '../../tools/instructions.js';
import { mcpToolListing, SERVER_CAPABILITIES } from '../../tools/listing.js';
import { registerCompletion } from './completion.js';
import { noteTournament } from './lookedAt.js';
import { registerPrompts } from './prompts/index.js';
import { registerResources } from './resources/index.js';

export interface McpServerOptions {
  /** How clients reach this server: decides what an auth error tells them to fix. */
  transport: 'http' | 'stdio';
  /** The origin an HTTP request reached (`http://host:port`), for links in answers; none over stdio. */
  origin?: string;
}

/**
 * One factory for both transports. `token` is the caller's bearer token (HTTP header, or
 * CFP_TOKEN over stdio); personal tools and resources check it per call, public ones ignore it.
 */
export function createMcpServer(
  tools: readonly AnyTool[],
  deps: AppDeps,
  token: string | undefined,
  opts: McpServerOptions = { transport: 'http' },
): Server {
  const server = new Server(
    { name: 'chess-footprint', title: 'chess-footprint', version: packageJson.version },
    { capabilities: SERVER_CAPABILITIES, instructions: SERVER_INSTRUCTIONS },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listing = tools.map(mcpToolListing);
  // Public tools over MCP share one bucket per family (spec section 8), hence one caller key.
  const caller: Caller = { surface: 'mcp', key: 'mcp', transport: opts.transport, origin: opts.origin };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listing }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      const body = { error: `no tool named ${request.params.name}; call tools/list` };
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
    }
    const outcome = await invokeTool(tool, deps, caller, token, request.params.arguments ?? {});
    const text = JSON.stringify(outcome.body);
    if (outcome.status >= 400) return { isError: true, content: [{ type: 'text', text }] };
    noteTournament({ deps, caller, token }, tool.name, request.params.arguments);
    return { content: [{ type: 'text', text }], structuredContent: outcome.body as Record<string, unknown> };
  });
  registerPrompts(server, { deps, caller, token });
  registerCompletion(server, { deps, caller, token });
  registerResources(server, deps, caller, token);
  return server;
}
