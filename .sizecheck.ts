import { tools } from './tools/index.js';
import { mcpToolListing, SERVER_INSTRUCTIONS } from './src/mcp/server.js';
const l = tools.map(mcpToolListing);
const all = JSON.stringify({ tools: l });
const out = l.reduce((s, t) => s + JSON.stringify(t.outputSchema).length, 0);
const read = l.reduce((s, t) => s + JSON.stringify({ n: t.name, d: t.description, i: t.inputSchema }).length, 0);
console.log({ total: all.length, outputSchemas: out, modelReads: read, instructions: SERVER_INSTRUCTIONS.length });
for (const t of l) if (t.description!.length > 1500) console.log(t.name, t.description!.length);
