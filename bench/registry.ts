/**
 * The benchmarks `engram bench <name>` and `npm run bench -- <name>` can run. Each returns a
 * printable table and the whole result as JSON. This is the entry the CLI loads at run time
 * (built to build/bench/registry.js); the library never imports it.
 */
import { InvalidInputError } from 'engram';

import { runActivationBenchmark } from './activation-latency.js';
import type { Benchmark, BenchOptions, BenchResult } from './bench-types.js';
import { runExtractionBenchmark } from './extraction.js';
import { runFootprintBenchmark } from './footprint.js';
import { runHookBenchmark } from './hook-latency.js';
import { runHttpBenchmark } from './http-recall.js';
import { runIngestBenchmark } from './ingest.js';
import { runInspectorBenchmark } from './inspector.js';
import { runLocomoBenchmark } from './locomo.js';
import { runLongMemEvalBenchmark } from './longmemeval.js';
import { runProxyBenchmark } from './proxy-latency.js';
import { runRecallReplayBenchmark } from './recall-replay.js';
import { runReliabilityBenchmark } from './reliability/report.js';
import { runScaleBenchmark } from './scale.js';
import { runSolutionsBenchmark } from './solutions.js';

/** Every benchmark by the name `engram bench <name>` takes. */
export const BENCHMARKS: Record<string, Benchmark> = {
  activation: {
    description: 'activation latency (working set, quotas, receipt) at 10k and 100k memories, next to a plain search',
    run: runActivationBenchmark,
  },
  extraction: {
    description:
      'offline extraction (people, places, organisations, things, speakers, resolved dates) on a labelled sample (--data FILE, default: test/fixtures/extraction-sample.json): precision, recall, ms per memory',
    run: runExtractionBenchmark,
  },
  footprint: {
    description:
      'bytes on disk per memory at 10k and 100k memories (1M with --full), by table and index (SQLite page statistics; on PostgreSQL with --store, each table and index and what the server spends to build and search; --store pglite+pgvector: a PGlite server with pgvector); --data FILE adds a store of LoCoMo turns',
    run: runFootprintBenchmark,
  },
  hook: {
    description:
      'wall time of one `engram hook claude-code` call per event, process start to exit, p50/p95 over 20 runs (--count memories, e.g. 1000)',
    run: runHookBenchmark,
  },
  http: {
    description:
      'recall through the HTTP API under load from a second process: POST /v1/search and before-turn req/s and p50/p95 at 1 and 16 connections (--count memories)',
    run: runHttpBenchmark,
  },
  ingest: { description: 'memories/s added with and without embeddings, database size per memory', run: runIngestBenchmark },
  inspector: {
    description:
      'web inspector page loads at 100k memories (server time from Server-Timing): target p50 ≤ 100 ms for a page of 50',
    run: runInspectorBenchmark,
  },
  locomo: {
    description: 'LoCoMo evidence retrieval (--data FILE): recall@k and hit@k per search method, overall and per category',
    run: runLocomoBenchmark,
  },
  longmemeval: {
    description: 'LongMemEval retrieval protocol (--data FILE): session recall_any/recall_all/ndcg@5,10 per search method',
    run: runLongMemEvalBenchmark,
  },
  proxy: {
    description:
      'latency `engram proxy` adds per chat completion over the upstream’s own time, warm, query embedding excluded (--count memories): target ≤ 10 ms',
    run: runProxyBenchmark,
  },
  recall: {
    description:
      'LoCoMo replayed as sessions (--data FILE): evidence recall and tokens injected per turn, default policy vs plain top-k',
    run: runRecallReplayBenchmark,
  },
  reliability: {
    description:
      'kill -9 under mixed load, concurrent writers, hostile input on every surface, poisoned memories and tenant isolation: lost writes, integrity and index failures, errors, crashes, leaks, broken framing, cross-tenant reads and writes (all targets 0)',
    run: runReliabilityBenchmark,
  },
  scale: {
    description: 'ingest rate, size, search latency and vector-index recall at 10k and 100k memories (1M with --full)',
    run: runScaleBenchmark,
  },
  solutions: {
    description:
      'solution recall (seed 004) on goal paraphrase pairs (--data FILE, default: bench/data/solution-pairs.json): top-1 per similarity',
    run: runSolutionsBenchmark,
  },
};

/** Runs the benchmark called `name`; an unknown name is an InvalidInputError listing the known ones. */
export async function runBenchmark(name: string, options: BenchOptions): Promise<BenchResult> {
  const bench = BENCHMARKS[name];
  if (!bench) throw new InvalidInputError(`unknown benchmark ${name}: choose one of ${Object.keys(BENCHMARKS).join(', ')}`);
  return bench.run(options);
}
