/**
 * Running one tool call from a model, whatever the provider: find the tool, execute it, and
 * turn an Engram error (bad arguments, an unknown id) into an error the model reads and can
 * act on. Anything else — a failing disk, a bug — is thrown to the program, not hidden.
 */
import { isEngramError } from '../errors.js';
import { findTool } from './create-memory-tools.js';
import type { MemoryTool } from './tool.js';

/** The outcome of one call: the tool's result, or the message of the error it raised. */
export type ToolCallOutcome = { ok: true; result: unknown } | { ok: false; error: string };

/** Runs the tool `name` with `args`. */
export async function runTool(tools: readonly MemoryTool[], name: string, args: unknown): Promise<ToolCallOutcome> {
  try {
    return { ok: true, result: await findTool(tools, name).execute(args) };
  } catch (error) {
    if (isEngramError(error)) return { ok: false, error: error.message };
    throw error;
  }
}

/** Arguments sent as a JSON string (OpenAI), parsed; invalid JSON becomes an error for the model. */
export async function runToolWithJsonArguments(
  tools: readonly MemoryTool[],
  name: string,
  json: string,
): Promise<ToolCallOutcome> {
  let args: unknown;
  try {
    // Some models send "" for a call without arguments.
    args = json.trim() === '' ? {} : JSON.parse(json);
  } catch {
    return { ok: false, error: `the arguments of ${name} are not valid JSON: send a JSON object` };
  }
  return runTool(tools, name, args);
}

/** The text a model reads for an outcome: the result as JSON, or `{"error": …}`. */
export function outcomeText(outcome: ToolCallOutcome): string {
  return JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error });
}
