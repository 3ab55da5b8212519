/** `engram restore`: bring forgotten (archived) memories back in place. */
import type { Command } from 'commander';

import { NotFoundError } from '../../../index.js';
import { globalOptions, printJson, withEngram } from '../context.js';

export function registerRestore(program: Command): void {
  program
    .command('restore')
    .description('bring forgotten (archived) memories back: same ids, nothing re-embedded')
    .argument('<ids...>', 'memory ids')
    .addHelpText('after', '\nExamples:\n  engram restore 01JD3T0Q7X5K2N8M4P6R9S1V3W')
    .action(async (ids: string[], _options: unknown, command: Command) => {
      const results = await withEngram(command, { mustExist: true }, async (engram) => {
        // Check every id before changing anything, so a typo in the third id restores nothing.
        for (const id of ids) {
          if (!(await engram.get(id))) throw new NotFoundError(`no memory with id ${id}: nothing was restored`);
        }
        const done = [];
        for (const id of ids) {
          const memory = await engram.restore(id);
          done.push({ id: memory.id, outcome: 'restored' as const });
        }
        return done;
      });
      if (globalOptions(command).json) printJson(results);
      else for (const { id, outcome } of results) process.stdout.write(`${outcome} ${id}\n`);
    });
}
