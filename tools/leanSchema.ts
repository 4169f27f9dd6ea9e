import type { JsonSchema } from './jsonSchema.js';
import { terse } from './sentences.js';

/**
 * The MCP listing's form of a tool's output JSON Schema (issue 15: a smaller tools/list). Every client
 * loads the whole listing into its model's context on connect, so the listing carries a short
 * description for every field, what the field is, while the full text (frames, units, edge cases)
 * stays in OpenAPI and in the schema resource (chess-footprint://schema/{tool}). Shapes, types, enums
 * and formats are untouched: the contract is the same, only the prose is shorter.
 */

/** Longest field description in the listing, in characters (measured: test/mcp/listingSize.ts). */
export const TERSE_FIELD_DESCRIPTION = 80;

/** Keys whose value is one subschema / a list of them / a name → subschema map (JSON Schema 2020-12, core §10). */
const ONE = ['items', 'additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties'];
const MANY = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', '$defs', 'patternProperties', 'dependentSchemas'];

/**
 * A copy of `schema` whose every description is terse and which has no `required`. The walk follows
 * only subschema positions, so a field that happens to be named `description` or `required`, or a
 * `default`/`enum`/`const` value, is never mistaken for a keyword.
 */
function tersed(schema: JsonSchema, max: number): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (typeof out.description === 'string') out.description = terse(out.description, max);
  delete out.required;
  const sub = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? tersed(v as JsonSchema, max) : v);
  for (const k of ONE) if (k in out) out[k] = sub(out[k]);
  for (const k of MANY) if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map(sub);
  for (const k of MAP) {
    const m = out[k];
    if (m && typeof m === 'object') out[k] = Object.fromEntries(Object.entries(m).map(([name, v]) => [name, sub(v)]));
  }
  return out;
}

/**
 * Output schema for tools/list: terse descriptions, and no `required`. A client validates
 * structuredContent against it; without `required` that check only loosens (every field the server
 * sends is still type-checked), and the outputs are already open to new fields (tools/jsonSchema.ts).
 */
export function leanOutputSchema(schema: JsonSchema): JsonSchema {
  return tersed(schema, TERSE_FIELD_DESCRIPTION);
}
