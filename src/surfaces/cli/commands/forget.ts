/** `engram forget`: archive memories, or delete them for good with --hard. */
import type { Command } from 'commander';

import { type Memory, NotFoundError } from '../../../index.js';
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
      const hard = options.hard ?? false;
      const results = await withEngram(command, { mustExist: true }, async (engram) => {
        // Check every id before changing anything, so a typo in the third id forgets nothing.
        const memories: Memory[] = [];
        for (const id of ids) {
          const memory = await engram.get(id);
          if (!memory) throw new NotFoundError(`no memory with id ${id}: nothing was forgotten`);
          memories.push(memory);
        }
        const done: { id: string; outcome: 'archived' | 'deleted' | 'already_archived' }[] = [];
        for (const memory of memories) {
          // Archiving an archived memory changes nothing, and says so (exit 0, as restoring a live one).
          if (!hard && memory.archivedAt !== null) done.push({ id: memory.id, outcome: 'already_archived' });
          else done.push(await engram.forget(memory.id, { hard }));
        }
        return done;
      });
      if (globalOptions(command).json) printJson(results);
      else {
        for (const { id, outcome } of results) {
          const line =
            outcome === 'already_archived'
              ? `${id} is already archived: nothing to forget (engram restore ${id} brings it back; --hard deletes it for good)`
              : `${outcome} ${id}`;
          process.stdout.write(`${line}\n`);
        }
      }
    });
}
