/** `engram list`: memories, newest first. */
import type { Command } from 'commander';

import type { Kind, Tier } from '../../../index.js';
import { collect, globalOptions, printJson, withEngram } from '../context.js';
import { memoryLine } from '../format.js';
import { parseLimit } from './search.js';

interface ListCommandOptions {
  limit: string;
  scope?: string[];
  kind?: string[];
  tier?: string[];
  all?: boolean;
  internal?: boolean;
  oldest?: boolean;
}

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list memories, newest first')
    .option('-n, --limit <n>', 'memories at most', '50')
    .option('-s, --scope <scope>', 'only these scopes (repeat, or separate with commas)', collect)
    .option('-k, --kind <kind>', 'only these kinds (repeat, or separate with commas)', collect)
    .option('-t, --tier <tier>', 'only these tiers (repeat, or separate with commas)', collect)
    .option('-a, --all', 'include archived and superseded memories')
    .option('--internal', "include Engram's internal records: working sets, handoff notes, scratchpads")
    .option('--oldest', 'oldest first')
    .addHelpText(
      'after',
      `
Engram's internal records (the working set it keeps per scope, handoff notes, scratchpads) are
left out unless --internal asks for them or --kind names them; \`engram handoff\` and
\`engram scratch\` print the current ones.

Examples:
  engram list --kind decision
  engram list --all --json
  engram list --internal`,
    )
    .action(async (options: ListCommandOptions, command: Command) => {
      const memories = await withEngram(command, { mustExist: true }, (engram) =>
        engram.list({
          limit: parseLimit(options.limit),
          scopes: options.scope,
          kinds: options.kind as Kind[] | undefined,
          tiers: options.tier as Tier[] | undefined,
          all: options.all ?? false,
          internal: options.internal ?? false,
          order: options.oldest ? 'oldest' : 'newest',
        }),
      );
      if (globalOptions(command).json) printJson(memories);
      else if (memories.length === 0) process.stdout.write('no memories\n');
      else for (const memory of memories) process.stdout.write(`${memoryLine(memory)}\n`);
    });
}
