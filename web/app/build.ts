// Builds the chat board (web/app/main.ts) into one self-contained HTML file, dist/web/chat-board.html: the script
// (esbuild, ext-apps' App and chess.js inside) and the stylesheets (the dashboard's, then the app's) inlined, so a
// host renders it under MCP Apps' default CSP with no network at all. Served as the ui:// resource (tools/app.ts).
import { build, type Plugin } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHAT_BOARD_FILE } from '../../src/paths.js';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * ext-apps validates its messages with zod, which re-exports all of its ~40 message locales (about 250 KB
 * minified) from one module, so a bundler cannot drop them. The app shows no zod message to anyone; zod's
 * default (English, the one locale zod itself configures) is kept and the others left out.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({ contents: "export { default as en } from 'zod/v4/locales/en.js';", resolveDir: here }));
  },
};

/**
 * The licences of the libraries bundled into the page (every package the bundle read, from esbuild's metafile:
 * chess.js BSD-2-Clause, the MCP SDK and zod MIT, zod-to-json-schema ISC, ext-apps MIT/Apache-2.0), as a comment at
 * its end: the page travels alone (a host stores and serves it), so its notices go with it.
 */
function licences(inputs: string[]): string {
  const packages = [...new Set(inputs.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1]).filter((p): p is string => Boolean(p)))].sort();
  const texts = packages.map((name) => {
    const dir = join(here, '..', '..', 'node_modules', name);
    const file = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license'].map((f) => join(dir, f)).find((f) => existsSync(f));
    if (!file) throw new Error(`no licence file for ${name}, which the chat board bundles`);
    return `${name} (https://www.npmjs.com/package/${name}):\n\n${readFileSync(file, 'utf8').replaceAll('-->', '- ->')}`;
  });
  return `<!--\nThe script above bundles these libraries:\n\n${texts.join('\n\n----\n\n')}\n-->\n`;
}

export async function buildChatBoard(outDir = join(here, '..', '..', 'dist', 'web')): Promise<{ file: string; bytes: number }> {
  const out = await build({
    entryPoints: [join(here, 'main.ts')],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    plugins: [zodEnglishOnly],
  });
  // "</script" inside the bundle's strings would end the inline script early; "<\/" reads the same in JavaScript.
  const script = out.outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1');
  const style = readFileSync(join(here, '..', 'style.css'), 'utf8') + readFileSync(join(here, 'app.css'), 'utf8');
  const template = readFileSync(join(here, 'index.html'), 'utf8');
  // Replaced by function: a "$" in the bundle must not be read as a replacement pattern.
  const html = template.replace('/*STYLE*/', () => style).replace('/*SCRIPT*/', () => script) + licences(Object.keys(out.metafile.inputs));
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, CHAT_BOARD_FILE);
  writeFileSync(file, html);
  return { file, bytes: Buffer.byteLength(html) };
}
