import type { JsonSchema } from './jsonSchema.js';

/**
 * Shapes said once inside one tool's JSON Schema (issue 43, the lean listing): a subschema repeated in the tool
 * moves under `$defs` and is referenced, and properties several objects share (the same names with the same
 * schemas: games, win, draw, loss, score…) move into one definition each holder references beside its own
 * properties (`{"$ref": …, "properties": {…}}`, valid since JSON Schema 2019-09, where $ref applies beside its
 * siblings). Validation is unchanged: without additionalProperties false or required, an object's properties
 * checked through a $ref are checked exactly as its own. Greedy, largest saving first; only savings count.
 */

/** Subschemas shorter than this (serialized) are never worth a reference. */
const MIN_SHARED = 40;
/** A reference's cost in bytes beside its name: `{"$ref":"#/$defs/"}`. */
const REF_COST = 19;
/** A definition's cost beside its name and body: `"":,`. */
const DEF_COST = 4;

type Node = JsonSchema;
const isObject = (v: unknown): v is Node => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Every subschema position under `node` (not `node` itself): [holder, key] pairs to read and replace. */
function positions(node: Node, out: Array<{ get(): Node; set(n: Node): void }> = []) {
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' || k === '$defs') {
      if (!isObject(v)) continue;
      for (const name of Object.keys(v)) {
        const m = v as Record<string, Node>;
        if (!isObject(m[name])) continue;
        out.push({ get: () => m[name], set: (n) => (m[name] = n) });
        positions(m[name], out);
      }
    } else if (k === 'anyOf' || k === 'allOf' || k === 'oneOf' || k === 'prefixItems') {
      if (!Array.isArray(v)) continue;
      v.forEach((s, i) => {
        if (!isObject(s)) return;
        out.push({ get: () => v[i] as Node, set: (n) => (v[i] = n) });
        positions(s, out);
      });
    } else if ((k === 'items' || k === 'additionalProperties') && isObject(v)) {
      out.push({ get: () => node[k] as Node, set: (n) => (node[k] = n) });
      positions(v, out);
    }
  }
  return out;
}

function defName(defs: Record<string, Node>, base: string): string {
  const clean = base.replace(/[^A-Za-z0-9]/g, '') || 'Shape';
  const cap = clean[0].toUpperCase() + clean.slice(1);
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? cap : `${cap}${n}`;
    if (!(name in defs)) return name;
  }
}

/** Repeated whole subschemas → one definition each. */
function hoistRepeats(root: Node, defs: Record<string, Node>): boolean {
  const all = positions(root);
  const count = new Map<string, number>();
  for (const p of all) {
    const s = JSON.stringify(p.get());
    if (s.length >= MIN_SHARED) count.set(s, (count.get(s) ?? 0) + 1);
  }
  let best: { text: string; gain: number } | null = null;
  for (const [text, n] of count) {
    const gain = (text.length - REF_COST - 8) * n - (text.length + DEF_COST + 8);
    if (n > 1 && gain > 0 && (!best || gain > best.gain)) best = { text, gain };
  }
  if (!best) return false;
  const existing = Object.entries(defs).find(([, d]) => JSON.stringify(d) === best.text)?.[0];
  const name = existing ?? defName(defs, 'Shared');
  if (!existing) defs[name] = JSON.parse(best.text) as Node;
  for (const p of positions(root)) if (p.get() !== defs[name] && JSON.stringify(p.get()) === best.text) p.set({ $ref: `#/$defs/${name}` });
  return true;
}

/** Properties (name and schema alike) that several objects share → one definition they reference. */
function hoistSharedProperties(root: Node, defs: Record<string, Node>): boolean {
  const holders = positions(root)
    .map((p) => p.get())
    .filter((n) => isObject(n.properties) && !('$ref' in n));
  const entries = holders.map((h) => new Map(Object.entries(h.properties as Record<string, Node>).map(([k, v]) => [k, JSON.stringify(v)])));
  let best: { keys: string[]; texts: string[]; gain: number } | null = null;
  for (let i = 0; i < holders.length; i += 1) {
    for (let j = i + 1; j < holders.length; j += 1) {
      const keys = [...entries[i].keys()].filter((k) => entries[j].get(k) === entries[i].get(k));
      if (keys.length < 2) continue;
      const texts = keys.map((k) => entries[i].get(k)!);
      const size = keys.reduce((s, k, x) => s + k.length + 4 + texts[x].length, 0);
      const users = entries.filter((e) => keys.every((k, x) => e.get(k) === texts[x])).length;
      const gain = (size - REF_COST - 12) * users - (size + DEF_COST + 30);
      if (gain > 0 && (!best || gain > best.gain)) best = { keys, texts, gain };
    }
  }
  if (!best) return false;
  const name = defName(defs, 'Common');
  defs[name] = { properties: Object.fromEntries(best.keys.map((k, x) => [k, JSON.parse(best.texts[x])])) };
  holders.forEach((h, i) => {
    if (!best.keys.every((k, x) => entries[i].get(k) === best.texts[x])) return;
    const props = h.properties as Record<string, Node>;
    for (const k of best.keys) delete props[k];
    h.$ref = `#/$defs/${name}`;
    if (!Object.keys(props).length) delete h.properties;
  });
  return true;
}

export function sharedDefinitions(schema: JsonSchema): JsonSchema {
  const root = structuredClone(schema);
  const defs = ((root.$defs as Record<string, Node> | undefined) ?? {}) as Record<string, Node>;
  root.$defs = defs;
  // Bounded: each round removes at least one repeat, and a listing has a few hundred subschemas.
  for (let round = 0; round < 500 && hoistRepeats(root, defs); round += 1);
  for (let round = 0; round < 500 && hoistSharedProperties(root, defs); round += 1);
  if (!Object.keys(defs).length) delete root.$defs;
  return root;
}
