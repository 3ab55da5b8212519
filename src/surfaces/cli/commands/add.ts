/** `engram add`: store a memory from arguments or standard input. */
import { type Command, Option } from 'commander';

import { KINDS, SOURCES, TIERS } from '../../../entries/model.js';
import { InvalidInputError, type MemoryInput } from '../../../index.js';
import { collect, globalOptions, printJson, readStdin, withEngram } from '../context.js';
import { dateOption } from '../date-option.js';
import { memoryLine } from '../format.js';

interface AddOptions {
  kind?: string;
  tier?: string;
  scope?: string;
  tag?: string[];
  key?: string;
  abstract?: string;
  context?: string;
  session?: string;
  source?: string;
  supersedes?: string;
  occurredAt?: string;
  pinned?: boolean;
  hardRule?: boolean;
  data?: string;
}

export function registerAdd(program: Command): void {
  program
    .command('add')
    .description('store a memory (text from the arguments, or from standard input)')
    .argument('[text...]', 'the memory; omit it (or give -) to read standard input')
    // No defaults here: the engine fills them, and a new version (--supersedes) keeps the old one's.
    .addOption(new Option('-k, --kind <kind>', `what it is: ${KINDS.join(', ')} (default: note, or the superseded memory's)`))
    .addOption(
      new Option(
        '-t, --tier <tier>',
        `how important to keep: ${TIERS.join(', ')} (default: unknown, or the superseded memory's)`,
      ),
    )
    .option('-s, --scope <scope>', "visibility scope, e.g. user:alice or project:x (default: global, or the superseded memory's)")
    .option('--tag <tags>', 'a tag (repeat, or separate with commas)', collect)
    .option('--key <key>', 'name of a keyed note; a new memory with the same key replaces it')
    .option('--abstract <sentence>', 'one-sentence summary used by intrusive recall')
    .option('--context <text>', 'text that situates the memory (e.g. the previous turn); searched with it, not shown')
    .option('--session <id>', 'session the memory came from')
    .addOption(new Option('--source <source>', `who said it: ${SOURCES.join(', ')}`).default('user'))
    .option('--supersedes <id>', 'id of a memory this one replaces (the old one is kept, marked superseded)')
    .option(
      '--occurred-at <date>',
      'when it happened, if not now: ISO 8601 (2026-01-31, 2026-01-31T09:00:00Z), today or yesterday',
    )
    .option('--pinned', 'always carry it in the working set')
    .option('--hard-rule', 'a hard constraint, never suppressed as a repeat')
    .option('--data <json>', 'kind-specific fields as a JSON object')
    .addHelpText(
      'after',
      `
Examples:
  engram add "We chose PostgreSQL for billing" --kind decision --tier must
  engram add "Alice prefers short answers" -k preference -s user:alice --tag style
  echo "Deploys happen on Tuesdays" | engram add --kind fact`,
    )
    .action(async (words: string[], options: AddOptions, command: Command) => {
      const occurredAt = dateOption(options.occurredAt, '--occurred-at');
      const text = words.length === 0 || (words.length === 1 && words[0] === '-') ? await readStdin() : words.join(' ');
      // Kind, tier and source arrive as plain strings: the engine validates them and says what is allowed.
      const input = {
        text,
        kind: options.kind,
        tier: options.tier,
        scope: options.scope,
        tags: options.tag,
        key: options.key,
        abstract: options.abstract,
        context: options.context,
        sessionId: options.session,
        source: options.source,
        supersedes: options.supersedes,
        occurredAt,
        pinned: options.pinned,
        hardRule: options.hardRule,
        data: options.data === undefined ? undefined : parseData(options.data),
      } as MemoryInput;
      const memory = await withEngram(command, { mustExist: false }, (engram) => engram.remember(input));
      if (globalOptions(command).json) printJson(memory);
      else process.stdout.write(`remembered ${memoryLine(memory)}\n`);
    });
}

function parseData(raw: string): Record<string, unknown> {
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch (cause) {
    throw new InvalidInputError(`--data is not valid JSON: ${raw.slice(0, 80)}`, { cause });
  }
}
