/**
 * The full CLI: builds the `engram` program, runs one command, and turns any error into one line
 * on standard error and a non-zero exit, never a stack trace (unless ENGRAM_DEBUG=1).
 */
import { CommanderError } from 'commander';

import { describeError } from './describe-error.js';
import { buildProgram } from './program.js';

/** Runs the CLI with `argv` (as in process.argv) and resolves to the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv]);
    // A command answered by the resident process sets the exit code it was given.
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    // --help and --version end by "throwing" with exit code 0.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    process.stderr.write(`engram: ${describeError(error)}\n`);
    if (process.env.ENGRAM_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return 1;
  }
}
