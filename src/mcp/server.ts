import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../../tools/defineTool.js';
import type { AppDeps } from '../context.js';
import { inputJsonSchema, outputJsonSchema } from '../facade/jsonSchema.js';
import { invokeTool } from '../facade/invoke.js';
import { packageJson } from '../paths.js';

export const SERVER_INSTRUCTIONS =
  'chess-footprint serves one player\'s chess data: games synced from chess.com (siteA), lichess (siteB) and the English Chess Federation (fed, over-the-board), Stockfish reviews of them, aggregates, a study collection and durable coaching state. ' +
  'Start with get_profile (who, and how fresh: lastSyncedAt) and get_coaching_state (what was agreed). Game ids come from list_games. ' +
  'Personal tools need the owner\'s bearer token; the library, tournament and ECF-calculator tools need none.';

/** The MCP description of a tool, from its registry entry. */
export function mcpToolListing(tool: AnyTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool) as Tool['inputSchema'],
    outputSchema: outputJsonSchema(tool) as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/**
 * One factory for both transports. `token` is the caller's bearer token (HTTP header, or
 * CFP_TOKEN over stdio); personal tools check it per call, public tools ignore it.
 */
export function createMcpServer(tools: readonly AnyTool[], deps: AppDeps, token: string | undefined, origin?: string): Server {
  const server = new Server(
    { name: 'chess-footprint', title: 'chess-footprint', version: packageJson.version },
    { capabilities: { tools: { listChanged: false } }, instructions: SERVER_INSTRUCTIONS },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listing = tools.map(mcpToolListing);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listing }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      const body = { error: `no tool named ${request.params.name}; call tools/list` };
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
    }
    // Public tools over MCP share one bucket per family (spec section 8), hence one caller key.
    const outcome = await invokeTool(tool, deps, { surface: 'mcp', key: 'mcp', origin }, token, request.params.arguments ?? {});
    const text = JSON.stringify(outcome.body);
    if (outcome.status >= 400) return { isError: true, content: [{ type: 'text', text }] };
    return { content: [{ type: 'text', text }], structuredContent: outcome.body as Record<string, unknown> };
  });
  return server;
}
