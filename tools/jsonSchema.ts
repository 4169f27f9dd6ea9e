import { z } from 'zod';
import type { AnyTool } from './defineTool.js';

export type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

const cache = new WeakMap<z.ZodType, { input?: JsonSchema; output?: JsonSchema }>();

/**
 * zod emits JavaScript's safe-integer range on every `.int()`; it says nothing a client needs
 * and was 14 KB of the tool listing, so bounds equal to that range are dropped.
 */
function dropSafeIntegerBounds(s: Record<string, unknown>): void {
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
}

/**
 * Outputs stay open to new fields: the spec lets responses grow ("add fields where it says not
 * shown"), and a client validating structuredContent must not reject a newer server's extra field.
 * Inputs keep zod's strictness, since an unexpected input field is an error the caller should see.
 */
function outputOverride(ctx: { jsonSchema: Record<string, unknown> }): void {
  dropSafeIntegerBounds(ctx.jsonSchema);
  if (ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
}

function inputOverride(ctx: { jsonSchema: Record<string, unknown> }): void {
  dropSafeIntegerBounds(ctx.jsonSchema);
}

/**
 * A tool whose whole output is a shared shape (a Focus, a saved position) would come out as a bare
 * `$ref`; MCP wants an object schema at the root, so the referenced definition is put there.
 */
function rootInlined(root: JsonSchema): void {
  const ref = root.$ref;
  const defs = root.$defs as Record<string, JsonSchema> | undefined;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/') || !defs) return;
  const name = ref.slice('#/$defs/'.length);
  const { [name]: def, ...others } = defs;
  delete root.$ref;
  const { description, ...own } = root;
  Object.assign(root, def, description === undefined ? {} : { description }, own);
  if (JSON.stringify(others).includes(`"#/$defs/${name}"`)) (root.$defs as Record<string, JsonSchema>)[name] = def;
  else if (Object.keys(others).length) root.$defs = others;
  else delete root.$defs;
}

/**
 * zod 4's own JSON Schema (draft 2020-12), without the `$schema` key (OpenAPI and MCP embed it).
 * Shapes declared with `.meta({ id })` in schemas/ (Evaluation, GameRef, …) are written once under
 * `$defs` and referenced, so a shape used ten times in one output is described once.
 */
function convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const entry = cache.get(schema) ?? {};
  if (!entry[io]) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', override: io === 'output' ? outputOverride : inputOverride }) as JsonSchema;
    rootInlined(rest);
    entry[io] = rest;
    cache.set(schema, entry);
  }
  return entry[io]!;
}

export const inputJsonSchema = (tool: AnyTool) => convert(tool.input, 'input');
export const outputJsonSchema = (tool: AnyTool) => convert(tool.output, 'output');
export const errorJsonSchema = (schema: z.ZodType) => convert(schema, 'output');
/** JSON Schema of any zod schema (the settings API's shapes). */
export const zodJsonSchema = convert;

/** The JSON type a query parameter should be coerced to before validation. */
export function scalarType(prop: JsonSchema | undefined): 'integer' | 'number' | 'boolean' | 'string' | 'other' {
  if (!prop) return 'other';
  const t = prop.type;
  if (t === 'integer' || t === 'number' || t === 'boolean' || t === 'string') return t;
  return 'other';
}
