import type { JsonSchema } from './jsonSchema.js';
import { sharedDefinitions } from './sharedDefs.js';

/**
 * The MCP listing's form of a tool's output JSON Schema (issues 15 and 43: tools/list at most 64 KB). Every
 * client loads the whole listing into its model's context on connect, and the outputs' structure alone (every
 * field with its JSON type) was 42 KB of the 64. So the listing declares every field (every property path of
 * the full schema is there, test/mcp/listing.test.ts) with its structure, objects, arrays, nullable objects,
 * maps, and value sets (enum, const), but not a leaf's primitive type, which the answer shows, nor any field
 * description: the full text (frames, units, edge cases) is in OpenAPI and in the schema resource
 * (chess-footprint://schema/{tool}), said once. Shapes repeated inside one tool are defined once under $defs
 * (tools/sharedDefs.ts).
 */

/** Keys whose value is one subschema / a list of them / a name → subschema map (JSON Schema 2020-12, core §10). */
const ONE = ['items', 'additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties'];
const MANY = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', '$defs', 'patternProperties', 'dependentSchemas'];
/** What a leaf keeps: its value set. Its type, format and bounds go (a value in the answer shows them). */
const VALUE_SET = ['enum', 'const'];

const isObject = (v: unknown): v is JsonSchema => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const isNull = (s: JsonSchema) => s.type === 'null' && Object.keys(s).length === 1;
/** A schema with no subschema in it: a string, a number, an enum… */
const isLeaf = (s: JsonSchema) => ![...ONE, ...MANY, ...MAP, '$ref'].some((k) => k in s);

function leaf(s: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const k of VALUE_SET) if (k in s) out[k] = s[k];
  return out;
}

/**
 * anyOf of leaves (a nullable number, a nullable enum) is one leaf: the union of their value sets when every
 * branch has one (null counted as a value), else anything. anyOf with a structure in it (a nullable object, a
 * $ref or null) keeps its branches, so the structure's fields stay declared.
 */
function union(branches: JsonSchema[]): JsonSchema {
  if (!branches.every((b) => isLeaf(b))) return { anyOf: branches.map((b) => (isNull(b) ? b : bare(b))) };
  const values: unknown[] = [];
  for (const b of branches) {
    if (isNull(b)) values.push(null);
    else if (Array.isArray(b.enum)) values.push(...b.enum);
    else if ('const' in b) values.push(b.const);
    else return {};
  }
  return { enum: [...new Set(values)] };
}

/** The schema without descriptions, `required` or a leaf's primitive type; structure and value sets kept. */
function bare(schema: JsonSchema): JsonSchema {
  if (isLeaf(schema)) return leaf(schema);
  if (Array.isArray(schema.anyOf) && Object.keys(schema).every((k) => k === 'anyOf' || k === 'description')) return union(schema.anyOf as JsonSchema[]);
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'description' || k === 'required' || k === 'title' || k === 'examples' || k === 'default') continue;
    if (ONE.includes(k)) out[k] = isObject(v) ? bare(v) : v;
    else if (MANY.includes(k) && Array.isArray(v)) out[k] = v.map((s) => (isObject(s) ? bare(s) : s));
    else if (MAP.includes(k) && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, isObject(s) ? bare(s) : s]));
    else if (k === 'type' || k === '$ref' || VALUE_SET.includes(k)) out[k] = v;
  }
  return out;
}

/**
 * Output schema for tools/list. A client validates structuredContent against it; the check only loosens
 * (no `required`, no primitive types), every structure the server sends is still checked, and the outputs
 * are already open to new fields (tools/jsonSchema.ts).
 */
export function leanOutputSchema(schema: JsonSchema): JsonSchema {
  return sharedDefinitions(bare(schema));
}
