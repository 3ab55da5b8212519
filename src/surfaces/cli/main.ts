#!/usr/bin/env node
/**
 * Entry point of the `engram` binary. A Claude Code hook call goes first to the resident Engram
 * process of its database (hook-fast-path.ts), loading nothing of the library; everything else,
 * and a hook the resident process could not take, runs the full CLI (run-cli.ts).
 */
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // `engram export | head` closes the pipe early: that is not a failure.
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv);

async function main(argv: readonly string[]): Promise<number> {
  const fastPath = await import('./hook-fast-path.js');
  if (fastPath.isHookCall(argv)) {
    let hook;
    try {
      hook = await fastPath.hookThroughDaemon(argv);
    } catch (error) {
      // As the hook command reports a failure (one line, exit 1: never 2, which would block the
      // agent); the reporter, which loads the library, only now that one is needed.
      return (await import('./describe-error.js')).reportError(error);
    }
    if (hook.handled) return hook.exitCode;
    if (hook.input !== undefined) (await import('./prefetched-input.js')).setPrefetchedInput(hook.input);
  }
  return (await import('./run-cli.js')).runCli(argv);
}
