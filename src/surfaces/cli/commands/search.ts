/** `engram search`: find memories by words and meaning. */
import type { Command } from 'commander';

import { type Fusion, FUSIONS, MAX_SEARCH_LIMIT, SEARCH_MODES, type SearchMode } from '../../../entries/model.js';
import { InvalidInputError, type Kind, type Tier } from '../../../index.js';
import { collect, globalOptions, printJson, withEngram } from '../context.js';
import { dateOption } from '../date-option.js';
import { hitLine } from '../format.js';

interface SearchCommandOptions {
  limit: string;
  mode: string;
  fusion?: string;
  minRelevance?: string;
  after?: string;
  before?: string;
  scope?: string[];
  kind?: string[];
  tier?: string[];
  internal?: boolean;
  graph: boolean;
  record?: boolean;
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
    .option('--internal', "include Engram's internal records: working sets, handoff notes, scratchpads")
    .option('-m, --mode <mode>', `ranking: ${SEARCH_MODES.join(', ')}`, 'hybrid')
    .option('--fusion <fusion>', `hybrid fusion: ${FUSIONS.join(', ')} (default from config)`)
    .option('--min-relevance <r>', 'leave out results with relevance below r (0 to 1)')
    .option('--after <date>', 'only memories that occurred at or after this date (ISO 8601, today, yesterday)')
    .option('--before <date>', 'only memories that occurred before this date (ISO 8601, today, yesterday)')
    .option('--no-graph', 'rank by words and meaning alone, without following the knowledge graph')
    .option(
      '--record',
      "count the results as retrieved, as an agent's recall does: they then score lower in its search_memory for a while (the retrieval cooldown)",
    )
    .addHelpText(
      'after',
      `
Examples:
  engram search "which database for billing"
  engram search deploy schedule --kind fact --limit 3
  engram search "support group" --mode bm25 --after 2023-05-01
  engram search "what did we decide about billing" --min-relevance 0.6
  engram search "what does alice prefer" --scope user:alice --json
  engram search "when did Caroline go to the support group" --no-graph`,
    )
    .action(async (words: string[], options: SearchCommandOptions, command: Command) => {
      const occurredAfter = dateOption(options.after, '--after');
      const occurredBefore = dateOption(options.before, '--before');
      const hits = await withEngram(command, { mustExist: true }, (engram) =>
        engram.search({
          query: words.join(' '),
          limit: parseLimit(options.limit, MAX_SEARCH_LIMIT),
          scopes: options.scope,
          kinds: options.kind as Kind[] | undefined,
          tiers: options.tier as Tier[] | undefined,
          internal: options.internal ?? false,
          // Mode and fusion arrive as strings: the engine checks them and says what is allowed.
          mode: options.mode as SearchMode,
          fusion: options.fusion as Fusion | undefined,
          minRelevance: options.minRelevance === undefined ? undefined : parseRelevance(options.minRelevance),
          occurredAfter,
          occurredBefore,
          // Only an explicit --no-graph overrides the configuration ([graph] recall).
          ...(options.graph ? {} : { graph: false }),
          // A look from the terminal is not the agent's recall: it feeds no cooldown unless asked.
          recordRetrieval: options.record ?? false,
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

function parseRelevance(raw: string): number {
  const value = Number(raw);
  if (!(value >= 0 && value <= 1)) throw new InvalidInputError(`--min-relevance must be a number from 0 to 1 (got ${raw})`);
  return value;
}
