import { buildOpenApi } from '../../src/http/openapi.js';
import { llmsTxt } from '../../src/http/discovery.js';
import { tools } from '../../tools/index.js';
import { SETTINGS_ROUTES } from '../../src/http/settings/routes.js';
import { PREP_ROUTES } from '../../src/http/prep/routes.js';

export const GOLDEN_BASE = 'http://127.0.0.1:3000';
/** The stdio command of an installation at a fixed place, so the golden file does not depend on the checkout's path. */
export const GOLDEN_STDIO = 'CFP_TOKEN=cfp_… /usr/local/bin/node /home/you/chess-footprint/bin/chess-footprint.js mcp --data-dir /home/you/chess-footprint/.data';

export function goldenFiles(): Record<string, string> {
  return {
    'openapi.json': `${JSON.stringify(buildOpenApi(tools, GOLDEN_BASE, [...SETTINGS_ROUTES, ...PREP_ROUTES]), null, 2)}\n`,
    'llms.txt': llmsTxt(tools, GOLDEN_BASE, GOLDEN_STDIO),
  };
}
