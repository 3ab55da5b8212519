/**
 * What the `engram graph` subcommands share: running one graph tool against the command's
 * database and printing its answer (the tool's JSON with `--json`), and checking arguments
 * before anything is opened.
 */
import type { Command } from 'commander';

import { createGraphTools, type GraphToolName } from '../../../entries/tools.js';
import { type Engram, InvalidInputError, NotFoundError } from '../../../index.js';
import { globalOptions, printJson, withEngram } from '../context.js';

const TOOL_HINT = 'with create_entities';
const SHELL_HINT = 'with engram graph add NAME --type TYPE';

/** Runs the graph tool `name` with `args` against the command's database and prints the answer. */
export async function runGraphTool<T>(
  command: Command,
  name: GraphToolName,
  args: Record<string, unknown>,
  print: (result: T) => string,
): Promise<void> {
  // Only creating entities may create the database: everything else needs entities to exist.
  const mustExist = name !== 'create_entities';
  const result = await withEngram(command, { mustExist }, async (engram: Engram) => {
    const [tool] = createGraphTools({ engram, only: [name] });
    try {
      return (await tool?.execute(args)) as T;
    } catch (error) {
      // The engine's hint names the tool an agent would call; at the shell it is `engram graph add`.
      if (error instanceof NotFoundError) throw new NotFoundError(error.message.replace(TOOL_HINT, SHELL_HINT));
      throw error;
    }
  });
  if (globalOptions(command).json) printJson(result);
  else process.stdout.write(`${print(result)}\n`);
}

/** A whole-number option in a range, or an error naming the option. */
export function wholeOption(raw: string | undefined, option: string, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidInputError(`${option} must be a whole number from ${min} to ${max} (got ${raw})`);
  }
  return value;
}

/** Repeatable option that keeps commas (observations are sentences). */
export function repeat(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
