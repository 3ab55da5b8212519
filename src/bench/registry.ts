/**
 * The benchmarks `engram bench <name>` and `npm run bench -- <name>` can run. Each returns a
 * printable table and the whole result as JSON.
 */
import { InvalidInputError } from '../errors.js';
import { runIngestBenchmark } from './ingest.js';

/** What every benchmark receives. */
export interface BenchOptions {
  count: number;
  data?: string | undefined;
  /** Progress lines (to standard error). */
  log: (line: string) => void;
}

export interface BenchResult {
  table: string;
  json: unknown;
}

export const BENCHMARKS: Record<string, { description: string; run: (options: BenchOptions) => Promise<BenchResult> }> = {
  ingest: { description: 'memories/s added with and without embeddings, database size per memory', run: runIngestBenchmark },
};

export async function runBenchmark(name: string, options: BenchOptions): Promise<BenchResult> {
  const bench = BENCHMARKS[name];
  if (!bench) throw new InvalidInputError(`unknown benchmark ${name}: choose one of ${Object.keys(BENCHMARKS).join(', ')}`);
  return bench.run(options);
}
