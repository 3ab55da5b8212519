/** `engram reindex`: re-embed every memory with the configured embedder. */
import type { Command } from 'commander';

import { globalOptions, printJson, withEngram } from '../context.js';
import { progressBar } from '../progress.js';

export function registerReindex(program: Command): void {
  program
    .command('reindex')
    .description(
      're-embed every memory with the configured embedder (needed after changing it) and extract its graph again (retrying failed extractions)',
    )
    .option('--progress', 'report progress on standard error even when it is not a terminal')
    .addHelpText('after', '\nExamples:\n  engram reindex\n  ENGRAM_EMBEDDING__PROVIDER=openai engram reindex --progress')
    .action(async (options: { progress?: boolean }, command: Command) => {
      const result = await withEngram(command, { mustExist: true }, (engram) =>
        engram.reindex(progressBar({ enabled: options.progress })),
      );
      if (globalOptions(command).json) printJson(result);
      else {
        const failed = result.extractionFailures;
        const graph =
          failed === 0
            ? ''
            : `; graph extraction failed again for ${failed === 1 ? '1 memory' : `${failed} memories`} (engram log shows why)`;
        process.stdout.write(`re-indexed ${result.memories} memories with ${result.embedder}${graph}\n`);
      }
    });
}
