/**
 * What a memory tool is: one definition (name, a description written for a model, a zod
 * schema for its arguments, a handler) from which every provider's shape is generated. The
 * definition is bound to an engine and a session to become a callable `MemoryTool`.
 */
import type { z } from 'zod';

import { InvalidInputError } from '../errors.js';
import type { Source } from '../model/memory.js';
import { describeIssues } from '../model/memory-input.js';
import { type JsonSchemaObject, toolJsonSchema } from './json-schema.js';
import type { ToolEngine } from './tool-engine.js';

export type { ToolEngine } from './tool-engine.js';

/** Where the tools read and write. */
export interface ToolContext {
  engram: ToolEngine;
  /** Session the writes belong to (thoughts, notes, handoff). */
  sessionId: string | null;
  /** Scope the tools write to and read keyed notes from. */
  scope: string;
  /** Scopes `search_memory` may see, most specific first; undefined = every scope of the tenant. */
  scopes: readonly string[] | undefined;
  /** Who the writes come from: the model ("agent"), or a person at the CLI ("user"). */
  source: Source;
}

/** One tool as written: its schema and its handler, not yet bound to an engine. */
export interface ToolDefinition<Schema extends z.ZodType = z.ZodType, Result = unknown> {
  name: string;
  description: string;
  schema: Schema;
  run(args: z.output<Schema>, context: ToolContext): Promise<Result>;
}

/** A tool the model can call: `{ name, description, inputSchema, execute(args) }` (DESIGN.md). */
export interface MemoryTool<Result = unknown> {
  readonly name: string;
  /** What the tool does and when to use it, written for the model. */
  readonly description: string;
  /** JSON Schema of the arguments: an object schema, as OpenAI, Anthropic and MCP expect. */
  readonly inputSchema: JsonSchemaObject;
  /** The same schema in zod, for callers that validate with zod (the Vercel AI SDK). */
  readonly argsSchema: z.ZodType;
  /**
   * Checks `args` and runs the tool. Malformed arguments throw an InvalidInputError whose
   * message tells the model what to fix, and change nothing. The result is plain JSON.
   */
  execute(args: unknown): Promise<Result>;
}

/** Declares a tool; the identity function, there for the types. */
export function defineTool<Schema extends z.ZodType, Result>(
  definition: ToolDefinition<Schema, Result>,
): ToolDefinition<Schema, Result> {
  return definition;
}

/** Binds a definition to an engine and a session. */
export function bindTool<Schema extends z.ZodType, Result>(
  definition: ToolDefinition<Schema, Result>,
  context: ToolContext,
): MemoryTool<Result> {
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: toolJsonSchema(definition.schema),
    argsSchema: definition.schema,
    execute: async (args) => definition.run(parseToolArgs(definition, args), context),
  };
}

/** `args` checked against the tool's schema, or an InvalidInputError naming every problem. */
export function parseToolArgs<Schema extends z.ZodType>(
  definition: ToolDefinition<Schema, unknown>,
  args: unknown,
): z.output<Schema> {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new InvalidInputError(`${definition.name} takes a JSON object of arguments (got ${describeValue(args)})`);
  }
  const result = definition.schema.safeParse(args);
  if (!result.success) throw new InvalidInputError(`${definition.name}: ${describeIssues(result.error)}`);
  return result.data;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? 'a string' : typeof value;
}
