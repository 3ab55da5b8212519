/** `engram forget`: archive memories, or delete them for good with --hard. */
import type { Command } from 'commander';

import { NotFoundError } from '../../../index.js';
import { globalOptions, printJson, withEngram } from '../context.js';

export function registerForget(program: Command): void {
  program
    .command('forget')
    .description('archive memories (hidden from search, kept in exports); --hard deletes them for good')
    .argument('<ids...>', 'memory ids')
    .option('--hard', 'delete for good, with their index entries')
    .addHelpText(
      'after',
      '\nExamples:\n  engram forget 01JD3T0Q7X5K2N8M4P6R9S1V3W\n  engram forget 01JD3T0Q7X5K2N8M4P6R9S1V3W --hard',
    )
    .action(async (ids: string[], options: { hard?: boolean }, command: Command) => {
      const results = await withEngram(command, { mustExist: true }, async (engram) => {
        // Check every id before changing anything, so a typo in the third id forgets nothing.
        for (const id of ids) {
          if (!(await engram.get(id))) throw new NotFoundError(`no memory with id ${id}: nothing was forgotten`);
        }
        const done = [];
        for (const id of ids) done.push(await engram.forget(id, { hard: options.hard ?? false }));
        return done;
      });
      if (globalOptions(command).json) printJson(results);
      else for (const { id, outcome } of results) process.stdout.write(`${outcome} ${id}\n`);
    });
}
