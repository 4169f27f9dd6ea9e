import type { Prompt, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { AnyTool } from './defineTool.js';
import { inputJsonSchema, outputJsonSchema } from './jsonSchema.js';
import type { PromptDefinition } from './prompts.js';
import { leanOutputSchema } from './leanSchema.js';
import { chatBoardToolMeta } from './app.js';

/**
 * How the MCP server lists itself, from the registry and the prompt definitions beside it: read by
 * the server factory (server.ts, prompts/) and by the server cards (src/http/discovery.ts), so a card
 * shows what tools/list and prompts/list answer without reaching into the server that answers them.
 */

/** What the server declares at initialize; the server card repeats it. */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  prompts: { listChanged: false },
  resources: { subscribe: false, listChanged: false },
  completions: {},
} as const;

// Built once per tool: the stateless HTTP transport makes a server, and so a listing, per request.
const listings = new WeakMap<AnyTool, Tool>();

/**
 * The MCP description of a tool, from its registry entry, with the lean output schema of
 * tools/leanSchema.ts (OpenAPI keeps the full one). Input schemas are listed whole: their text
 * (defaults, ranges, what a value selects) is what a caller needs to make the call, and is 11 KB in all.
 */
export function mcpToolListing(tool: AnyTool): Tool {
  let listing = listings.get(tool);
  if (!listing) {
    listing = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputJsonSchema(tool) as Tool['inputSchema'],
      outputSchema: leanOutputSchema(outputJsonSchema(tool)) as Tool['outputSchema'],
      // The four hints; the title is said once, as the tool's own (issue 43).
      annotations: { ...tool.annotations },
    };
    const meta = chatBoardToolMeta(tool.name);
    if (meta) listing._meta = meta;
    listings.set(tool, listing);
  }
  return listing;
}

/** prompts/list entry: arguments derived from the zod object (name, its description, required unless optional). */
export function promptListing(p: PromptDefinition): Prompt {
  return {
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: Object.entries(p.arguments.shape).map(([name, schema]) => ({
      name,
      description: (schema as z.ZodType).description ?? name,
      required: !(schema as z.ZodType).safeParse(undefined).success,
    })),
  };
}
