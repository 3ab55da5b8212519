/** `engram show`: every field of one memory. */
import type { Command } from 'commander';

import { NotFoundError } from '../../../index.js';
import { globalOptions, printJson, withEngram } from '../context.js';
import { memoryBlock } from '../format.js';

export function registerShow(program: Command): void {
  program
    .command('show')
    .description('show every field of a memory')
    .argument('<id>', 'the memory id (from add, list or search)')
    .addHelpText(
      'after',
      '\nExamples:\n  engram show 01JD3T0Q7X5K2N8M4P6R9S1V3W\n  engram show 01JD3T0Q7X5K2N8M4P6R9S1V3W --json',
    )
    .action(async (id: string, _options: unknown, command: Command) => {
      const memory = await withEngram(command, { mustExist: true }, (engram) => engram.get(id));
      if (!memory) throw new NotFoundError(`no memory with id ${id}: list ids with \`engram list\``);
      if (globalOptions(command).json) printJson(memory);
      else process.stdout.write(`${memoryBlock(memory)}\n`);
    });
}
