// vitest globalSetup: bundles the CLI from source once per run, so each CLI child the tests start
// loads one file instead of transforming ~300 TypeScript modules through tsx (5.8 s against 1.8 s a
// start, measured with `--version`; test/cli/firstRun.test.ts starts ~25 children).
import { mkdirSync, renameSync } from 'node:fs';
import { build } from 'esbuild';
import { CLI_BUNDLE, CLI_BUNDLE_DIR, JUDGEMENT_THREAD_BUNDLE } from './cliBundle.js';

export default async function setup(): Promise<void> {
  mkdirSync(CLI_BUNDLE_DIR, { recursive: true });
  await bundle(new URL('./cliEntry.ts', import.meta.url), CLI_BUNDLE);
  // The thread that judges review workers' submissions (src/services/workers/offThread.ts) is a file of its own,
  // bundled beside the CLI, where offThread.ts looks for it when it runs from this bundle.
  await bundle(new URL('../../src/services/workers/judgementThread.ts', import.meta.url), JUDGEMENT_THREAD_BUNDLE);
}

async function bundle(entry: URL, outfile: string): Promise<void> {
  // Written beside and renamed: two runs in one checkout never load a half-written file.
  const partial = `${outfile}.${process.pid}.tmp`;
  await build({
    entryPoints: [entry.pathname],
    outfile: partial,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Dependencies load from node_modules as the installed CLI loads them; only our code is bundled.
    packages: 'external',
    logLevel: 'warning',
  });
  renameSync(partial, outfile);
}
