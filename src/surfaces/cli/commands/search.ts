/** `engram search`: find memories by words and meaning. */
import type { Command } from 'commander';

import { InvalidInputError, type Kind, MAX_SEARCH_LIMIT, type Tier } from '../../../index.js';
import { collect, globalOptions, printJson, withEngram } from '../context.js';
import { hitLine } from '../format.js';

interface SearchCommandOptions {
  limit: string;
  scope?: string[];
  kind?: string[];
  tier?: string[];
}

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('find memories by words and meaning, best first')
    .argument('<query...>', 'what to look for')
    .option('-n, --limit <n>', 'results at most', '10')
    .option('-s, --scope <scope>', 'only these scopes (repeat, or separate with commas)', collect)
    .option('-k, --kind <kind>', 'only these kinds (repeat, or separate with commas)', collect)
    .option('-t, --tier <tier>', 'only these tiers (repeat, or separate with commas)', collect)
    .addHelpText(
      'after',
      `
Examples:
  engram search "which database for billing"
  engram search deploy schedule --kind fact --limit 3
  engram search "what does alice prefer" --scope user:alice --json`,
    )
    .action(async (words: string[], options: SearchCommandOptions, command: Command) => {
      const hits = await withEngram(command, { mustExist: true }, (engram) =>
        engram.search({
          query: words.join(' '),
          limit: parseLimit(options.limit, MAX_SEARCH_LIMIT),
          scopes: options.scope,
          kinds: options.kind as Kind[] | undefined,
          tiers: options.tier as Tier[] | undefined,
        }),
      );
      if (globalOptions(command).json) {
        printJson(hits);
        return;
      }
      if (hits.length === 0) process.stdout.write('no memories match\n');
      hits.forEach((hit, i) => process.stdout.write(`${hitLine(hit, i + 1)}\n`));
    });
}

/** A `--limit` value as a whole number from 1 to `max`. */
export function parseLimit(raw: string, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? 'of at least 1' : `from 1 to ${max}`;
    throw new InvalidInputError(`--limit must be a whole number ${range} (got ${raw})`);
  }
  return value;
}
