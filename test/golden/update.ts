// `npm run gen:golden`: rewrites the golden OpenAPI and llms.txt after an intended change to the registry,
// and the MCP Registry's server.json at the package root.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registryServerJson } from '../../src/http/mcpDiscovery.js';
import { packageRoot } from '../../src/paths.js';
import { GOLDEN_BASE, goldenFiles } from './golden.js';

for (const [name, text] of Object.entries(goldenFiles())) {
  writeFileSync(join(import.meta.dirname, name), text);
  console.log(`wrote test/golden/${name} (base ${GOLDEN_BASE})`);
}

// server.json for the MCP Registry (mcp-publisher reads it from the package root).
writeFileSync(join(packageRoot, 'server.json'), `${JSON.stringify(registryServerJson(), null, 2)}\n`);
console.log('wrote server.json');
