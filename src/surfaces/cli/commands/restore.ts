/** `engram restore`: bring forgotten (archived) memories back in place. */
import type { Command } from 'commander';

import { type Memory, NotFoundError } from '../../../index.js';
import { globalOptions, printJson, withEngram } from '../context.js';

/** What became of one id: brought back, or left as it was because it was not archived. */
interface RestoreOutcome {
  id: string;
  outcome: 'restored' | 'not_archived';
  /** For a memory that was not archived: why nothing was done, and what is the case instead. */
  note?: string;
}

export function registerRestore(program: Command): void {
  program
    .command('restore')
    .description('bring forgotten (archived) memories back: same ids, nothing re-embedded')
    .argument('<ids...>', 'memory ids')
    .addHelpText('after', '\nExamples:\n  engram restore 01JD3T0Q7X5K2N8M4P6R9S1V3W')
    .action(async (ids: string[], _options: unknown, command: Command) => {
      const results = await withEngram(command, { mustExist: true }, async (engram) => {
        // Check every id before changing anything, so a typo in the third id restores nothing.
        const memories: Memory[] = [];
        for (const id of ids) {
          const memory = await engram.get(id);
          if (!memory) throw new NotFoundError(`no memory with id ${id}: nothing was restored`);
          memories.push(memory);
        }
        const done: RestoreOutcome[] = [];
        for (const memory of memories) {
          if (memory.archivedAt === null) done.push({ id: memory.id, outcome: 'not_archived', note: notArchived(memory) });
          else done.push({ id: (await engram.restore(memory.id)).id, outcome: 'restored' });
        }
        return done;
      });
      if (globalOptions(command).json) printJson(results);
      else for (const { id, outcome, note } of results) process.stdout.write(note ? `${note}\n` : `${outcome} ${id}\n`);
    });
}

/** Why a memory that is not archived is left alone (a no-op, not an error: exit 0, as forgetting twice). */
function notArchived(memory: Memory): string {
  const superseded = memory.supersededBy
    ? `; it is superseded by ${memory.supersededBy}, which restore does not undo (engram show ${memory.id})`
    : '';
  return `${memory.id} is not archived: nothing to restore${superseded}`;
}
