import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * Arrows point down (docs/ARCHITECTURE.md): the chess rules and the engine are the bottom of the
 * code. `src/chess` imports only itself (plus the package-root helper `src/paths.ts`, a leaf that
 * locates bundled data files); `src/engine` imports only itself and `src/chess`. Packages
 * (chess.js, node:*) are fine; schemas/, services, store, facades, http and mcp are not.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports, side-effect imports, dynamic import(). */
function specifiers(source: string): string[] {
  const out: string[] = [];
  const patterns = [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s+['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of source.matchAll(re)) out.push(m[1]);
  return out;
}

/** Relative imports of the layer's files that land outside `allowed` (paths relative to the repo root). */
function violations(layer: string, allowed: string[]): string[] {
  const bad: string[] = [];
  for (const file of filesUnder(join(root, layer))) {
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(root, resolve(dirname(file), spec));
      if (!allowed.some((a) => target === a.replace(/\.ts$/, '.js') || target.startsWith(`${a}/`))) bad.push(`${relative(root, file)} → ${spec}`);
    }
  }
  return bad;
}

describe('layering', () => {
  test('src/chess imports nothing above itself', () => {
    expect(violations('src/chess', ['src/chess', 'src/paths.ts'])).toEqual([]);
  });

  test('src/engine imports only itself and src/chess', () => {
    expect(violations('src/engine', ['src/engine', 'src/chess'])).toEqual([]);
  });

  test('the scan sees imports (a file of the layer that imports a schema would be caught)', () => {
    expect(specifiers("import type { X } from '../../schemas/a.js';\nexport { y } from './b.js';\nawait import('../store/db.js');")).toEqual([
      '../../schemas/a.js',
      './b.js',
      '../store/db.js',
    ]);
    expect(violations('src/services/review', ['src/chess'])).not.toEqual([]);
  });
});
