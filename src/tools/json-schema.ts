/**
 * A tool's zod schema as the JSON Schema object every tool-calling API reads (OpenAI
 * `parameters`, Anthropic `input_schema`, MCP `inputSchema`): the input side of the schema
 * (defaults make a field optional), without the `$schema` line the APIs do not need.
 */
import { z } from 'zod';

/** A JSON Schema for a tool's arguments: always an object schema. */
export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
  [keyword: string]: unknown;
}

/** The JSON Schema of `schema`, which must describe an object. */
export function toolJsonSchema(schema: z.ZodType): JsonSchemaObject {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  if (json.type !== 'object') throw new TypeError('a tool schema must describe an object');
  return json as JsonSchemaObject;
}
