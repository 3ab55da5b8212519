/**
 * `engram bench <name>`: run a benchmark and print its table (or JSON with --json). The
 * benchmarks are not part of the library or the published package: they live in the source
 * checkout's bench/ folder, and this command loads their build (build/bench/) at run time.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { Command } from 'commander';

import { redactUrl } from '../../../entries/model.js';
import { EngramError, InvalidInputError } from '../../../index.js';
import { packageRoot } from '../../package-root.js';
import { globalOptions, printJson } from '../context.js';

/** The benchmarks in bench/registry.ts, for the help text (a CLI test keeps the two lists equal). */
const BENCHMARK_NAMES = [
  'activation',
  'extraction',
  'footprint',
  'hook',
  'http',
  'ingest',
  'inspector',
  'locomo',
  'longmemeval',
  'proxy',
  'recall',
  'reliability',
  'scale',
  'solutions',
] as const;

/** `--store` values that make `bench footprint` start a PGlite server of its own (bench/bench-store.ts). */
const PGLITE_STORES: readonly string[] = ['pglite', 'pglite+pgvector'];

const ROOT = pathToFileURL(`${packageRoot()}/`);
/** The built benchmark registry (`npm run build:bench`). */
const BENCH_ENTRY = new URL('build/bench/registry.js', ROOT);
/** The benchmarks' sources: present in a source checkout, absent from an installed package. */
const BENCH_SOURCES = fileURLToPath(new URL('bench/registry.ts', ROOT));

/** What the CLI uses of the bench registry (typed here: the library never imports bench code). */
interface BenchRegistry {
  runBenchmark(
    name: string,
    options: {
      count: number;
      data?: string | undefined;
      context: boolean;
      full: boolean;
      store?: string | undefined;
      log: (line: string) => void;
    },
  ): Promise<{ table: string; json: unknown }>;
}

/** Adds `engram bench <name>` to the program. */
export function registerBench(program: Command): void {
  program
    .command('bench')
    .description(`run a benchmark: ${BENCHMARK_NAMES.join(', ')}`)
    .argument('<name>', 'which benchmark')
    .option('--count <n>', 'memories to use (ingest)', '10000')
    .option('--data <file>', 'benchmark data file (locomo, longmemeval; footprint: a LoCoMo file whose turns it also stores)')
    .option('--no-context', 'index conversation turns without the turn before them (locomo, longmemeval)')
    .option('--full', 'include the largest size (scale: 1M memories)')
    .addHelpText(
      'after',
      `
Benchmarks run from a source checkout of Engram (npm run bench -- <name> builds them first).
--data takes a file of a public data set you download yourself: LoCoMo's locomo10.json, a
LongMemEval file, or any file in those formats (see docs/benchmarks.md, "Where the data comes from").

Examples:
  engram bench ingest --count 2000 --json
  engram bench locomo --data locomo10.json
  engram bench longmemeval --data longmemeval_s.json --no-context
  engram bench scale
  engram bench scale --store postgres://engram:secret@db:5432/engram   (scale, http, footprint: on PostgreSQL)
  engram bench footprint --store pglite+pgvector   (PGlite with pgvector, in a process of its own)`,
    )
    .action(
      async (name: string, options: { count: string; data?: string; context: boolean; full?: boolean }, command: Command) => {
        const count = Number(options.count);
        if (!Number.isInteger(count) || count < 1)
          throw new InvalidInputError(`--count must be a whole number of at least 1 (got ${options.count})`);
        const { json = false, store } = globalOptions(command);
        if (store !== undefined && PGLITE_STORES.includes(store) && name !== 'footprint') {
          throw new InvalidInputError(`--store ${store} is for \`bench footprint\` only: give ${name} a postgres:// URL`);
        }
        if (store !== undefined && !PGLITE_STORES.includes(store) && !/^postgres(ql)?:\/\//i.test(store)) {
          throw new InvalidInputError(
            `--store takes a postgres:// URL, or pglite / pglite+pgvector for bench footprint (got "${redactUrl(store)}")`,
          );
        }
        const { runBenchmark } = await loadBenchRegistry(name);
        const result = await runBenchmark(name, {
          count,
          data: options.data,
          context: options.context,
          full: options.full ?? false,
          store,
          log: json ? () => undefined : (line) => process.stderr.write(`${line}\n`),
        });
        if (json) printJson(result.json);
        else process.stdout.write(`${result.table}\n`);
      },
    );
}

/** Loads the built benchmarks, or explains where they run: an installed package has none. */
async function loadBenchRegistry(name: string): Promise<BenchRegistry> {
  const command = `npm run bench -- ${name}`;
  if (!existsSync(BENCH_ENTRY)) {
    throw new EngramError(
      'not_found',
      existsSync(BENCH_SOURCES)
        ? `the benchmarks are not built: run \`${command}\` (it builds them first)`
        : `benchmarks run from a source checkout of Engram, with \`${command}\`: the installed package has none`,
    );
  }
  const loaded = (await import(BENCH_ENTRY.href)) as Partial<BenchRegistry>;
  if (typeof loaded.runBenchmark !== 'function') {
    throw new EngramError('not_found', `${fileURLToPath(BENCH_ENTRY)} is not Engram's benchmark registry: run \`${command}\``);
  }
  return loaded as BenchRegistry;
}
