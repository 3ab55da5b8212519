/**
 * `engram recall`: active recall for one user message, as an agent loop would run it before the
 * model call. Prints the block to inject; the receipt is kept (see `engram receipts`).
 */
import type { Command } from 'commander';

import { commandConfig, globalOptions, withEngram } from '../context.js';
import { answeredByDaemon } from '../daemon-route.js';
import { given } from '../given.js';
import { recallOutput } from '../recall-output.js';

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
    .action(async (text: string, options: RecallCommandOptions, command: Command) => {
      // Checked here, before the resident process or the engine: the library's wording names its own method.
      const message = given(text, 'the message', 'engram recall "what database do we use for billing?"');
      const json = globalOptions(command).json === true;
      const request = { op: 'recall', message, session: options.session, scope: options.scope, json } as const;
      const config = commandConfig(command);
      if (await answeredByDaemon(command, config, request)) return;
      const result = await withEngram(command, { mustExist: false, config }, (engram) =>
        engram.session({ id: options.session, scope: options.scope }).beforeTurn(message),
      );
      process.stdout.write(recallOutput(result, { session: options.session, json }));
    });
}
