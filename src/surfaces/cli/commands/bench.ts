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
    .option('--data <file>', 'benchmark data file (for data-driven benchmarks)')
    .addHelpText('after', '\nExamples:\n  engram bench ingest\n  engram bench ingest --count 2000 --json')
    .action(async (name: string, options: { count: string; data?: string }, command: Command) => {
      const count = Number(options.count);
      if (!Number.isInteger(count) || count < 1)
        throw new InvalidInputError(`--count must be a whole number of at least 1 (got ${options.count})`);
      const json = globalOptions(command).json ?? false;
      const result = await runBenchmark(name, {
        count,
        data: options.data,
        log: json ? () => undefined : (line) => process.stderr.write(`${line}\n`),
      });
      if (json) printJson(result.json);
      else process.stdout.write(`${result.table}\n`);
    });
}
