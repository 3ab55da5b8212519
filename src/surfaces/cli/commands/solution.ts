/**
 * `engram solution add` and `engram solution recall`: the CLI mirrors of `store_solution` and
 * `recall_solution` (seed 004) — record a solved task, and find similar ones for a new goal.
 */
import type { Command } from 'commander';

import { SOLUTION_SIMILARITIES } from '../../../entries/tools.js';
import { InvalidInputError } from '../../../index.js';
import { globalOptions, printJson, withEngram } from '../context.js';
import { runMemoryTool, type WhereOptions, whereOptions } from './run-memory-tool.js';

interface AddOptions extends WhereOptions {
  goal: string;
  approach: string;
  outcome: string;
  confidence: string;
  failed?: boolean;
}

interface RecallOptions extends WhereOptions {
  similarity?: string;
  limit?: string;
}

export function registerSolution(program: Command): void {
  const solution = program
    .command('solution')
    .description('solved tasks (seed 004): record one with `add`, find similar ones with `recall`');
  whereOptions(
    solution
      .command('add')
      .description('record a solved (or, with --failed, a failed) task')
      .requiredOption('--goal <text>', 'the task, e.g. "Write a CSV parser"')
      .requiredOption('--approach <text>', 'how it was solved, or what was tried')
      .requiredOption('--outcome <text>', 'how it ended')
      .requiredOption('--confidence <n>', 'how sure, from 0 to 100')
      .option('--failed', 'the attempt failed: recall shows it as what not to repeat'),
  )
    .addHelpText(
      'after',
      `
Example:
  engram solution add --goal "Write a CSV parser" --approach "Used fs.readFileSync, split by newlines." \\
    --outcome "Working script" --confidence 90`,
    )
    .action(async (options: AddOptions, command: Command) => {
      const args = {
        goal: options.goal,
        approach: options.approach,
        outcome: options.outcome,
        confidence: parseConfidence(options.confidence),
        status: options.failed ? 'failed' : 'succeeded',
      };
      const result = await withEngram(command, { mustExist: false }, (engram) =>
        runMemoryTool<{ id: string; message: string }>(engram, 'store_solution', args, options),
      );
      if (globalOptions(command).json) printJson(result);
      else process.stdout.write(`${result.message} [${result.id}]\n`);
    });
  solution
    .command('recall')
    .description('find recorded tasks similar to a new goal, as RECALL blocks')
    .argument('<goal...>', 'the new task')
    .option('--similarity <how>', `${SOLUTION_SIMILARITIES.join(', ')} (default from [solutions] similarity)`)
    .option('-n, --limit <n>', 'solutions at most (1 to 10)', '3')
    .addHelpText(
      'after',
      `
Examples:
  engram solution recall "Parse a CSV file"
  engram solution recall "Retrieve HTML content" --similarity semantic --json`,
    )
    .action(async (words: string[], options: RecallOptions, command: Command) => {
      const args = {
        goal: words.join(' '),
        limit: Number(options.limit),
        ...(options.similarity ? { similarity: options.similarity } : {}),
      };
      const result = await withEngram(command, { mustExist: true }, (engram) =>
        runMemoryTool<{ block: string | null; message: string }>(engram, 'recall_solution', args, { scope: 'global' }),
      );
      if (globalOptions(command).json) printJson(result);
      else process.stdout.write(`${result.block ?? result.message}\n`);
    });
}

function parseConfidence(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !(value >= 0 && value <= 100)) {
    throw new InvalidInputError(`--confidence must be a number from 0 to 100 (got ${raw})`);
  }
  return value;
}
