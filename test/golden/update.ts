// `npm run gen:golden`: rewrites the golden OpenAPI and llms.txt after an intended change to the registry.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GOLDEN_BASE, goldenFiles } from './golden.js';

for (const [name, text] of Object.entries(goldenFiles())) {
  writeFileSync(join(import.meta.dirname, name), text);
  console.log(`wrote test/golden/${name} (base ${GOLDEN_BASE})`);
}
