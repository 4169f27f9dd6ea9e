// `npx tsx test/mcp/listingSize.ts`: bytes of the MCP tools/list result (compact JSON) and its parts,
// the figures issue 15 was measured with (before: 184,874 total, 147,197 output schemas).
import { mcpToolListing } from '../../tools/listing.js';
import { tools } from '../../tools/index.js';

const listing = tools.map(mcpToolListing);
const bytes = (x: unknown) => Buffer.byteLength(JSON.stringify(x));
console.log({
  total: bytes({ tools: listing }),
  outputSchemas: listing.reduce((s, t) => s + bytes(t.outputSchema), 0),
  namesDescriptionsInputs: listing.reduce((s, t) => s + bytes({ n: t.name, d: t.description, i: t.inputSchema }), 0),
});
