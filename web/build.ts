// Builds the dashboard client into dist/web: one ES module bundle (esbuild), the stylesheet, the
// HTML shell and the licence of the one bundled library (chess.js, BSD-2-Clause). The chess pieces
// (web/pieces.ts) are drawn for this project and MIT like it: no third-party artwork is bundled.
// Runs in `npm run build` (and so in `prepare`); prints the gzipped size.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildChatBoard } from './app/build.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

export async function buildDashboard(outDir = join(root, 'dist', 'web')): Promise<{ outDir: string; gzipBytes: number }> {
  mkdirSync(join(outDir, 'assets'), { recursive: true });
  await build({
    entryPoints: [join(here, 'main.ts')],
    outfile: join(outDir, 'assets', 'app.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
  });
  copyFileSync(join(here, 'style.css'), join(outDir, 'assets', 'app.css'));
  copyFileSync(join(here, 'index.html'), join(outDir, 'index.html'));
  copyFileSync(join(here, 'favicon.svg'), join(outDir, 'assets', 'favicon.svg'));
  const chessLicence = readFileSync(join(root, 'node_modules', 'chess.js', 'LICENSE'), 'utf8');
  writeFileSync(join(outDir, 'assets', 'third-party-licenses.txt'), `The dashboard bundle (app.js) includes chess.js (https://github.com/jhlywa/chess.js):\n\n${chessLicence}`);
  // The chat board (MCP Apps) beside it: one HTML file, its own bundle.
  await buildChatBoard(outDir);
  const gzipBytes = ['app.js', 'app.css'].reduce((n, f) => n + gzipSync(readFileSync(join(outDir, 'assets', f)), { level: 9 }).length, 0) + gzipSync(readFileSync(join(outDir, 'index.html')), { level: 9 }).length;
  return { outDir, gzipBytes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { outDir, gzipBytes } = await buildDashboard();
  // stderr: stdout of a build run by `npm pack --json` (prepare) must stay the JSON alone.
  console.error(`dashboard built into ${outDir} (${(gzipBytes / 1024).toFixed(1)} KiB gzipped)`);
}
