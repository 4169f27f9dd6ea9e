import { z } from 'zod';
import type { AnyTool } from '../../tools/defineTool.js';

export type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

const cache = new WeakMap<z.ZodType, { input?: JsonSchema; output?: JsonSchema }>();

/** zod 4's own JSON Schema (draft 2020-12), without the `$schema` key (OpenAPI and MCP embed it). */
function convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const entry = cache.get(schema) ?? {};
  if (!entry[io]) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
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
