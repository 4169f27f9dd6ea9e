import { tools } from './tools/index.js';
import { outputJsonSchema } from './src/facade/jsonSchema.js';
const sub = new Map<string, number>(); let desc = 0;
function walk(n: any) {
  if (Array.isArray(n)) return n.forEach(walk);
  if (n && typeof n === 'object') {
    if (typeof n.description === 'string') desc += n.description.length;
    const s = JSON.stringify(n); if (s.length > 200) sub.set(s, (sub.get(s) ?? 0) + 1);
    Object.values(n).forEach(walk);
  }
}
for (const t of tools) { const o = outputJsonSchema(t); console.log(t.name, JSON.stringify(o).length); walk(o); }
console.log('desc', desc);
const rep = [...sub.entries()].filter(([, c]) => c > 1).map(([s, c]) => [s.length * (c - 1), c, s.slice(0, 120)] as const).sort((a, b) => b[0] - a[0]).slice(0, 20);
for (const r of rep) console.log(r[0], r[1], r[2]);
