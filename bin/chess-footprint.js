#!/usr/bin/env node
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/index.js', import.meta.url);
let cli;
try {
  cli = await import(entry.href);
} catch (err) {
  // A clone installed with --ignore-scripts (or never installed) has no build yet: say what to run.
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(fileURLToPath(entry))) {
    console.error(`error: chess-footprint is not built (no ${fileURLToPath(entry)}): run \`npm ci\` or \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}`);
    process.exit(1);
  }
  throw err;
}

cli.main(process.argv).catch((err) => {
  console.error(`error: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
