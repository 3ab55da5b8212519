/**
 * The full CLI: builds the `engram` program, runs one command, and turns any error into one line
 * on standard error and a non-zero exit, never a stack trace (unless ENGRAM_DEBUG=1).
 */
import { CommanderError } from 'commander';

import { reportError } from './describe-error.js';
import { programFor } from './program.js';
import { ReportedFailure } from './reported-failure.js';

/** Runs the CLI with `argv` (as in process.argv) and resolves to the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await (await programFor(argv)).parseAsync([...argv]);
    return 0;
  } catch (error) {
    // --help and --version end by "throwing" with exit code 0.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    if (error instanceof ReportedFailure) return error.exitCode;
    return reportError(error);
  }
}
