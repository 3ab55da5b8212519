/**
 * The memory tools as a Vercel AI SDK tool set: `{ [name]: { description, inputSchema,
 * execute } }` with the zod schemas, the shape `generateText({ tools })` takes. Plain objects,
 * so Engram needs no dependency on the SDK.
 */
import type { z } from 'zod';

import type { MemoryTool } from '../tool.js';

/** One tool in the AI SDK's shape. */
export interface AiSdkTool {
  description: string;
  inputSchema: z.ZodType;
  execute: (args: unknown) => Promise<unknown>;
}

/** The tools keyed by name, for `generateText({ tools })` or `streamText({ tools })`. */
export function toAiSdkTools(tools: readonly MemoryTool[]): Record<string, AiSdkTool> {
  return Object.fromEntries(
    tools.map((tool) => [
      tool.name,
      // The SDK passes call options as a second argument; the tools need only the arguments.
      { description: tool.description, inputSchema: tool.argsSchema, execute: (args: unknown) => tool.execute(args) },
    ]),
  );
}
