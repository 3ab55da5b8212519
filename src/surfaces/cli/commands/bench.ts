/** `engram bench <name>`: run a benchmark and print its table (or JSON with --json). */
import type { Command } from 'commander';

import { BENCHMARKS, runBenchmark } from '../../../bench/registry.js';
import { InvalidInputError } from '../../../index.js';
import { globalOptions, printJson } from '../context.js';

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description(`run a benchmark: ${Object.keys(BENCHMARKS).join(', ')}`)
    .argument('<name>', 'which benchmark')
    .option('--count <n>', 'memories to use (ingest)', '10000')
    .option('--data <file>', 'benchmark data file (locomo, longmemeval)')
    .option('--no-context', 'index conversation turns without the turn before them (locomo, longmemeval)')
    .option('--full', 'include the largest size (scale: 1M memories)')
    .addHelpText(
      'after',
      `
Examples:
  engram bench ingest --count 2000 --json
  engram bench locomo --data ../shared/bench/locomo/locomo-dev.json
  engram bench longmemeval --data longmemeval_s.json --no-context
  engram bench scale`,
    )
    .action(
      async (name: string, options: { count: string; data?: string; context: boolean; full?: boolean }, command: Command) => {
        const count = Number(options.count);
        if (!Number.isInteger(count) || count < 1)
          throw new InvalidInputError(`--count must be a whole number of at least 1 (got ${options.count})`);
        const json = globalOptions(command).json ?? false;
        const result = await runBenchmark(name, {
          count,
          data: options.data,
          context: options.context,
          full: options.full ?? false,
          log: json ? () => undefined : (line) => process.stderr.write(`${line}\n`),
        });
        if (json) printJson(result.json);
        else process.stdout.write(`${result.table}\n`);
      },
    );
}
