import type { z } from 'zod';
import type { Ctx, PersonalCtx } from '../src/context.js';
import type { Reply } from '../src/errors.js';
import type { Family } from '../src/config.js';
import { renderings, type DocumentedStatus, type ToolText } from './outcomes.js';

export type Access = 'personal' | 'public';
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** All four MCP annotations are set on every tool: the protocol's defaults are pessimistic. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

type HandlerResult<O extends z.ZodType> = z.input<O> | Reply<z.input<O>>;

export interface ToolDefinition<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  A extends Access = Access,
> {
  name: string;
  title: string;
  /**
   * Written for an agent: when to call it, what comes back, what to do next. This is the MCP
   * rendering (outcomes named as results and tool errors, never HTTP statuses).
   */
  description: string;
  /** The same text for REST readers (OpenAPI, llms.txt), naming HTTP statuses. */
  httpDescription: string;
  access: A;
  family: Family;
  rest: { method: HttpMethod; path: string };
  /** Path, query and body fields in one schema; path parameters are the `{name}` segments of rest.path. */
  input: I;
  output: O;
  annotations: ToolAnnotations;
  statuses: readonly DocumentedStatus[];
  handler: (ctx: A extends 'personal' ? PersonalCtx : Ctx, input: z.output<I>) => HandlerResult<O> | Promise<HandlerResult<O>>;
}

export type AnyTool = ToolDefinition<z.ZodObject, z.ZodObject, Access>;

/** A tool as written in tools/: one description source, rendered for both surfaces (tools/outcomes.ts). */
export type ToolSpec<I extends z.ZodObject, O extends z.ZodObject, A extends Access> = Omit<
  ToolDefinition<I, O, A>,
  'description' | 'httpDescription'
> & { description: string | ToolText };

export function defineTool<I extends z.ZodObject, O extends z.ZodObject, A extends Access>(
  spec: ToolSpec<I, O, A>,
): ToolDefinition<I, O, A> {
  const { mcp, http } = renderings(spec.description);
  return { ...spec, description: mcp, httpDescription: http };
}

/** Names of the `{param}` segments of a REST path. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
