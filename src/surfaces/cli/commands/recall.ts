/**
 * `engram recall`: active recall for one user message, as an agent loop would run it before the
 * model call. Prints the block to inject; the receipt is kept (see `engram receipts`).
 */
import type { Command } from 'commander';

import { globalOptions, printJson, withEngram } from '../context.js';

interface RecallCommandOptions {
  session: string;
  scope?: string;
}

export function registerRecall(program: Command): void {
  program
    .command('recall')
    .description('run active recall for a user message: print the memories to inject before the model call')
    .argument('<message>', 'the user message')
    .option('--session <id>', 'the session (turns and repeat suppression are counted per session)', 'cli')
    .option('-s, --scope <scope>', 'the session scope (default global)')
    .addHelpText(
      'after',
      '\nExamples:\n  engram recall "what database do we use for billing?" --session s1\n  engram recall "and for search?" --session s1 --json',
    )
    .action(async (message: string, options: RecallCommandOptions, command: Command) => {
      const result = await withEngram(command, { mustExist: false }, (engram) =>
        engram.session({ id: options.session, scope: options.scope }).beforeTurn(message),
      );
      if (globalOptions(command).json) {
        printJson(result);
        return;
      }
      if (result.receipt === null) {
        process.stdout.write('active recall did not run: it is disabled, or no memory has an embedding yet\n');
        return;
      }
      process.stdout.write(
        `${result.message?.content ?? 'nothing to inject'}\n\nturn ${result.turn}: ${result.receipt.whySummary}\n` +
          `details: engram receipts --session ${options.session} --turn ${result.turn}\n`,
      );
    });
}
