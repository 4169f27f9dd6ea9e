#!/usr/bin/env node
import { fileURLToPath } from 'node:url';

// Before anything loads a native module: better-sqlite3 13 (the store's driver, Node-API) needs Node 22.14 or
// later and segfaults opening a database below it (WiseLibs/better-sqlite3#1514). Exit 5 is EXIT.node in
// src/cli/errors.ts. Kept in plain JavaScript that every Node parses, so even an old one prints this line.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 14)) {
  console.error(`error: chess-footprint needs Node 22.14 or later (22 LTS or 24); this is Node ${process.versions.node}`);
  process.exit(5);
}

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
