/**
 * What the CLI mirrors of the memory tools share: each runs the very tool a model would call,
 * so a note written at the terminal behaves exactly like one written by an agent (and lands
 * in the activity log the same way), only with `source: "user"`.
 */
import type { Command } from 'commander';

import { createMemoryTools, type MemoryToolName } from '../../../entries/tools.js';
import type { Engram } from '../../../index.js';

/** `--scope` and `--session`, as the mirrors take them. */
export interface WhereOptions {
  scope: string;
  session?: string;
}

/** Adds `--scope` and `--session` to a mirror command. */
export function whereOptions(command: Command): Command {
  return command
    .option('-s, --scope <scope>', 'scope of the note, e.g. user:alice or project:x', 'global')
    .option('--session <id>', 'session the write belongs to');
}

/** Runs the tool `name` with `args` against `engram`, as the user. */
export async function runMemoryTool<T>(
  engram: Engram,
  name: MemoryToolName,
  args: Record<string, unknown>,
  where: WhereOptions,
): Promise<T> {
  const [tool] = createMemoryTools({
    engram,
    scope: where.scope,
    sessionId: where.session ?? null,
    source: 'user',
    only: [name],
  });
  return (await tool?.execute(args)) as T;
}

/** The text of a mirror's words: joined, or standard input for `-`; undefined when there are none. */
export async function wordsOrStdin(words: readonly string[], readStdin: () => Promise<string>): Promise<string | undefined> {
  if (words.length === 0) return undefined;
  return words.length === 1 && words[0] === '-' ? readStdin() : words.join(' ');
}
