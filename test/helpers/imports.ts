import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The house drawn from its imports: every relative import of the TypeScript under src/, tools/,
 * web/ and schemas/ (static imports and re-exports, side-effect imports, dynamic import(), type-only
 * ones included: a type is an arrow too). Read by test/layers.test.ts, and printed by
 * `npx tsx test/helpers/imports.ts` (rooms, arrows, circles, two-way room pairs).
 */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const TOPS = ['src', 'tools', 'web', 'schemas'] as const;

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports, side-effect imports, dynamic import(). */
export function specifiers(source: string): string[] {
  const out: string[] = [];
  const patterns = [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s+['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of source.matchAll(re)) out.push(m[1]);
  return out;
}

/** The repo-relative .ts file a relative specifier names (NodeNext's `.js`, or the bundler's bare and folder forms in web/). */
function resolveSpecifier(file: string, spec: string): string | null {
  const base = resolve(dirname(file), spec);
  for (const c of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')]) {
    if (c.endsWith('.ts') && existsSync(c) && statSync(c).isFile()) return relative(root, c);
  }
  return null;
}

/** file → the files it imports (repo-relative paths), over the given top-level folders. */
export function importGraph(tops: readonly string[] = TOPS): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const top of tops) {
    for (const file of filesUnder(join(root, top))) {
      const to = new Set<string>();
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = resolveSpecifier(file, spec);
        if (target) to.add(target);
      }
      graph.set(relative(root, file), to);
    }
  }
  return graph;
}

/** The sets of files that import each other round a circle (strongly connected, more than one file; Tarjan). */
export function circles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1) found.push(set.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** A room of the house: each entry of src/ (folder or loose file), and tools/, web/, schemas/ whole. */
export function houseRoom(file: string): string {
  const parts = file.split('/');
  return parts[0] !== 'src' ? parts[0] : parts.slice(0, 2).join('/');
}

/** A room of src/services: its folder (a domain), or a loose file; null outside src/services. */
export function serviceRoom(file: string): string | null {
  const parts = file.split('/');
  return parts[0] === 'src' && parts[1] === 'services' ? parts.slice(0, 3).join('/') : null;
}

/** The distinct arrows between rooms (a room's imports of itself left out). */
export function roomArrows(graph: Map<string, Set<string>>, roomOf: (file: string) => string | null): { rooms: Set<string>; arrows: Set<string> } {
  const rooms = new Set<string>();
  const arrows = new Set<string>();
  for (const [file, targets] of graph) {
    const from = roomOf(file);
    if (from === null) continue;
    rooms.add(from);
    for (const t of targets) {
      const to = roomOf(t);
      if (to !== null && to !== from) arrows.add(`${from} → ${to}`);
    }
  }
  return { rooms, arrows };
}

/** Room pairs with an arrow each way. */
export function twoWay(arrows: Set<string>): string[] {
  return [...arrows].filter((a) => {
    const [from, to] = a.split(' → ');
    return from < to && arrows.has(`${to} → ${from}`);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = importGraph();
  const house = roomArrows(graph, houseRoom);
  const services = roomArrows(graph, serviceRoom);
  const rounds = circles(graph);
  console.log(`files ${graph.size}, imports ${[...graph.values()].reduce((n, s) => n + s.size, 0)}`);
  console.log(`house (src/* entries, tools, web, schemas): ${house.rooms.size} rooms, ${house.arrows.size} arrows`);
  console.log(`src/services: ${services.rooms.size} rooms (domain folders and loose files), ${services.arrows.size} arrows between them`);
  console.log(`import circles: ${rounds.length}`);
  for (const c of rounds) console.log(`  ${c.join(', ')}`);
  for (const [name, arrows] of [['house', house.arrows], ['src/services', services.arrows]] as const) {
    const pairs = twoWay(arrows);
    console.log(`two-way room pairs (${name}): ${pairs.length}`);
    for (const p of pairs) console.log(`  ${p.replace(' → ', ' ↔ ')}`);
  }
  if (process.argv.includes('--arrows')) for (const a of [...house.arrows].sort()) console.log(`  ${a}`);
}
