import type { z } from 'zod';
import type { PersonalCtx } from '../src/context.js';

/**
 * One part of a prompt's answer, as MCP's prompts/get carries it (one content block per message): the
 * instructions as text, and the data they rest on as embedded resources, each the JSON its resource URI
 * gives. Claude Desktop's model only calls tools and never reads a resource (issue 43), so a prompt that
 * needs a scouted player or a tree brings it along instead of telling the model to read it.
 */
export type PromptPart =
  | { type: 'text'; text: string }
  | { type: 'resource'; resource: { uri: string; mimeType: 'application/json'; text: string } };

/**
 * The workflows an agent would otherwise have to discover tool by tool. Each prompt is one object: its
 * arguments as a zod object of strings (MCP prompt arguments are strings), the tools its message names
 * (a test checks every one exists in the registry) and the message itself.
 */
export interface PromptDefinition<A extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  arguments: A;
  /** Every tool the message names, in the order it asks for them. */
  tools: readonly string[];
  /** The resource templates whose JSON the message carries, where it carries any. */
  resources?: readonly string[];
  /**
   * Renders from the owner's data (their games, scouts, trees): prompts/get then needs the owner's
   * token and is charged as a personal read, and `render` gets the owner's context.
   */
  personal: boolean;
  // Method syntax (bivariant parameters) lets one list hold prompts with different arguments.
  render(args: z.output<A>, owner: PersonalCtx | null): string | PromptPart[] | Promise<string | PromptPart[]>;
}

export function definePrompt<A extends z.ZodObject>(def: PromptDefinition<A>): PromptDefinition<A> {
  return def;
}

/** The owner's context of a personal prompt (prompts/get gives one to every prompt marked personal). */
export function ownerOf(owner: PersonalCtx | null): PersonalCtx {
  if (!owner) throw new Error('a personal prompt was rendered without the owner');
  return owner;
}

export const steps = (lines: readonly string[]) => lines.map((l, i) => `${i + 1}. ${l}`).join('\n');

export const NEVER_INVENT =
  'Never invent moves, evaluations or results: when a tool says a game has no moves or no review, say so and offer the next step it names.';

export const text = (t: string): PromptPart => ({ type: 'text', text: t });
