import { join } from 'node:path';

/**
 * Where test/helpers/buildCli.ts puts the bundled CLI: inside the checkout (src/paths.ts finds the
 * package root by walking up from the running file), in the tool cache git and npm pack ignore.
 */
export const CLI_BUNDLE_DIR = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'chess-footprint-test');
export const CLI_BUNDLE = join(CLI_BUNDLE_DIR, 'cli.mjs');
/** The submission thread's bundle, beside the CLI's (src/services/workers/offThread.ts finds it there). */
export const JUDGEMENT_THREAD_BUNDLE = join(CLI_BUNDLE_DIR, 'judgementThread.mjs');
