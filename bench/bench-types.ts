/**
 * What a benchmark takes and gives back. Its own module, so the benchmarks and the registry
 * that lists them both import it and neither imports the other's module back.
 */

/** What every benchmark receives. */
export interface BenchOptions {
  count: number;
  data?: string | undefined;
  /** Progress lines (to standard error). */
  log: (line: string) => void;
  /** Index conversation turns with the turn before them as context. @default true */
  context?: boolean | undefined;
  /** The largest sizes too (scale: 1M memories). @default false */
  full?: boolean | undefined;
  /**
   * A PostgreSQL database to measure instead of SQLite files (scale, http): `--store` or
   * ENGRAM_STORE_URL. Each run works in a schema of its own there and drops it at the end.
   */
  store?: string | undefined;
}

/** A finished benchmark: the table to print and the whole result for `--json`. */
export interface BenchResult {
  table: string;
  json: unknown;
}

/** A benchmark as the registry lists it. */
export interface Benchmark {
  description: string;
  run: (options: BenchOptions) => Promise<BenchResult>;
}
