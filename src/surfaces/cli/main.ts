#!/usr/bin/env node
/**
 * Entry point of the `engram` binary: runs the command and turns any error into one line on
 * standard error and a non-zero exit, never a stack trace (unless ENGRAM_DEBUG=1).
 */
import { CommanderError } from 'commander';

import { isEngramError } from '../../index.js';
import { buildProgram } from './program.js';

/** Runs the CLI with `argv` (as in process.argv) and resolves to the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv]);
    return 0;
  } catch (error) {
    // --help and --version end by "throwing" with exit code 0.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    process.stderr.write(`engram: ${describeError(error)}\n`);
    if (process.env.ENGRAM_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return 1;
  }
}

function describeError(error: unknown): string {
  if (isEngramError(error)) return error.message;
  if (error instanceof CommanderError) {
    const message = error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
    return `${message} (see engram --help)`;
  }
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string') return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `unexpected error: ${message} (run again with ENGRAM_DEBUG=1 for details, and please report it)`;
}

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // `engram export | head` closes the pipe early: that is not a failure.
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await runCli(process.argv);
