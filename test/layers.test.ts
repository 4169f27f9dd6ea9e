import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { circles, houseRoom, importGraph, root, roomArrows, specifiers, twoWay } from './helpers/imports.js';

/**
 * Arrows point down (docs/ARCHITECTURE.md, "Rules"). The import graph of src/, tools/, web/ and
 * schemas/ (test/helpers/imports.ts, type-only imports included) is checked here:
 * - `src/chess` imports only itself (plus `src/paths.ts`, a leaf that locates bundled data files);
 *   `src/engine` only itself and `src/chess`;
 * - `src/services` is domain folders, each entered from outside only by its `index.ts`;
 * - no circle of files, no two rooms that import each other, and the named lower rooms import
 *   nothing of the rooms above them.
 */
const graph = importGraph();
const SERVICES = 'src/services/';

/** Imports of the files under `layer` that land outside `allowed` (repo-relative folders or files). */
function violations(layer: string, allowed: string[]): string[] {
  const bad: string[] = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith(`${layer}/`)) continue;
    for (const t of targets) if (!allowed.some((a) => t === a || t.startsWith(`${a}/`))) bad.push(`${file} → ${t}`);
  }
  return bad;
}

/** Imports by files under `layer` of anything under `forbidden`. */
function reaches(layer: string, forbidden: string[]): string[] {
  const bad: string[] = [];
  for (const [file, targets] of graph) {
    if (file !== layer && !file.startsWith(`${layer}/`)) continue;
    for (const t of targets) if (forbidden.some((f) => t === f || t.startsWith(`${f}/`))) bad.push(`${file} → ${t}`);
  }
  return bad;
}

const domainOf = (file: string) => (file.startsWith(SERVICES) && file.slice(SERVICES.length).includes('/') ? file.slice(SERVICES.length).split('/')[0] : null);

/**
 * The one import past a door: the runtime (below the context, which types ctx.runtime with the
 * queue) holds the review queue, while the review's door also opens the reads that take a context.
 */
const PAST_THE_DOOR = new Set(['src/runtime.ts → src/services/review/queue.ts']);

describe('layering', () => {
  test('src/chess imports nothing above itself', () => {
    expect(violations('src/chess', ['src/chess', 'src/paths.ts'])).toEqual([]);
  });

  test('src/engine imports only itself and src/chess', () => {
    expect(violations('src/engine', ['src/engine', 'src/chess'])).toEqual([]);
  });

  test('src/services holds domain folders, each with an index.ts door, and no loose files', () => {
    const dir = join(root, SERVICES);
    const entries = readdirSync(dir);
    expect(entries.filter((e) => !statSync(join(dir, e)).isDirectory())).toEqual([]);
    expect(entries.filter((e) => !existsSync(join(dir, e, 'index.ts')))).toEqual([]);
  });

  test('a domain is entered only through its door, from tools/ and every other room', () => {
    const bad: string[] = [];
    for (const [file, targets] of graph) {
      for (const t of targets) {
        const d = domainOf(t);
        if (d === null || d === domainOf(file) || t === `${SERVICES}${d}/index.ts`) continue;
        if (!PAST_THE_DOOR.has(`${file} → ${t}`)) bad.push(`${file} → ${t}`);
      }
    }
    expect(bad).toEqual([]);
  });

  test('no circles: no file imports itself round a loop, and the domains form no loop', () => {
    expect(circles(graph)).toEqual([]);
    const domains = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = domainOf(file);
      if (from === null) continue;
      const to = domains.get(from) ?? domains.set(from, new Set()).get(from)!;
      for (const t of targets) {
        const d = domainOf(t);
        if (d !== null && d !== from) to.add(d);
      }
    }
    expect(circles(domains)).toEqual([]);
  });

  test('no two rooms import each other', () => {
    expect(twoWay(roomArrows(graph, houseRoom).arrows)).toEqual([]);
  });

  test('lower rooms import nothing above them', () => {
    // The domain: no facade, registry, host or command.
    expect(reaches('src/services', ['src/http', 'src/mcp', 'src/facade', 'src/cli', 'src/demo', 'tools', 'web'])).toEqual([]);
    // The registry sits below both facades and the invoke path.
    expect(reaches('tools', ['src/http', 'src/mcp', 'src/facade', 'src/cli'])).toEqual([]);
    // One facade does not lean on the other: what both need of HTTP is src/facade/http.ts.
    expect(reaches('src/mcp', ['src/http'])).toEqual([]);
    expect(reaches('src/facade', ['src/http', 'src/mcp'])).toEqual([]);
    // Configuration is below what it configures: the rate-limit families and their default buckets are
    // settings (src/config.ts), which src/limits applies; config imports nothing of limits.
    expect(reaches('src/config.ts', ['src/limits'])).toEqual([]);
    // What describes the registry to every surface (the MCP listing, the server instructions, the lean
    // output schemas) lives beside it in tools/: the server cards read it there, not from src/mcp.
    expect(reaches('src/http/discovery.ts', ['src/mcp'])).toEqual([]);
    // The store and the sources are below the domain (a source record's type names the games table's columns).
    expect(reaches('src/store', ['src/services', 'src/sources', 'tools'])).toEqual([]);
    expect(reaches('src/sources', ['src/services', 'tools'])).toEqual([]);
  });

  test('the scan sees imports (a file of the layer that imports a schema would be caught)', () => {
    expect(specifiers("import type { X } from '../../schemas/a.js';\nexport { y } from './b.js';\nawait import('../store/db.js');")).toEqual([
      '../../schemas/a.js',
      './b.js',
      '../store/db.js',
    ]);
    expect(violations('src/services/review', ['src/chess'])).not.toEqual([]);
    expect(circles(new Map([['a', new Set(['b'])], ['b', new Set(['a'])], ['c', new Set(['a'])]]))).toEqual([['a', 'b']]);
    expect(twoWay(new Set(['x → y', 'y → x', 'x → z']))).toEqual(['x → y']);
  });
});
