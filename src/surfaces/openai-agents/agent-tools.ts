/**
 * Engram's memory tools as the SDK's function tools (`tool()`), with their JSON Schemas
 * (`strict: false`: the schemas have optional fields). Arguments are checked by the tool itself;
 * an error reaches the model as the tool's output, the SDK's `errorFunction` convention: a
 * mistake the model can fix says what to fix, and a failing Engram says memory is unavailable,
 * logs one line and lets the run go on.
 */
import { type FunctionTool, tool } from '@openai/agents';

import type { MemoryTool } from '../../entries/tools.js';
import { isEngramError } from '../../index.js';

type JsonParameters = Extract<Parameters<typeof tool>[0], { strict: false }>['parameters'];

/**
 * Memory tools (`session.tools()`) as the SDK's function tools, for an agent's `tools`.
 * `log` is where a failure of Engram is reported. @default standard error
 */
export function toAgentTools(tools: readonly MemoryTool[], options: { log?: (line: string) => void } = {}): FunctionTool[] {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return tools.map((memoryTool) =>
    tool({
      name: memoryTool.name,
      description: memoryTool.description,
      // Engram's schemas forbid unknown fields; the tool checks the arguments either way.
      parameters: memoryTool.inputSchema as unknown as JsonParameters,
      strict: false,
      execute: async (input: unknown) => JSON.stringify(await memoryTool.execute(input)),
      errorFunction: (_context, error) => toolErrorText(memoryTool.name, error, log),
    }),
  );
}

/** What the model reads when a tool call fails: `{"error": …}`, as Engram's tools answer everywhere. */
function toolErrorText(name: string, error: unknown, log: (line: string) => void): string {
  const message = error instanceof Error ? error.message : String(error);
  if (isEngramError(error) && (error.code === 'invalid_input' || error.code === 'not_found')) {
    return JSON.stringify({ error: message });
  }
  log(`engram openai-agents: ${name} failed, the run goes on without it: ${message}`);
  return JSON.stringify({ error: `${name} could not reach Engram's memory (${message}); go on without it.` });
}
