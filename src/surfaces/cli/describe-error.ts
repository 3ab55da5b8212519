/**
 * Any error as the one line the CLI prints after `engram: `: Engram's own errors and usage
 * mistakes as they are, anything unexpected with a pointer to ENGRAM_DEBUG. The resident process
 * words its errors the same way, so a caller cannot tell where its command ran.
 */
import { CommanderError } from 'commander';

import { isEngramError } from '../../index.js';

/** The message for `error`, without the `engram: ` prefix. */
export function describeError(error: unknown): string {
  if (isEngramError(error)) return error.message;
  if (error instanceof CommanderError) {
    const message = error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
    return `${message} (see engram --help)`;
  }
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string') return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `unexpected error: ${message} (run again with ENGRAM_DEBUG=1 for details, and please report it)`;
}

/** Prints `error` as the CLI's one line on stderr (and its stack with ENGRAM_DEBUG); returns the exit code, 1. */
export function reportError(error: unknown): number {
  process.stderr.write(`engram: ${describeError(error)}\n`);
  if (process.env.ENGRAM_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return 1;
}
