/**
 * `bench scale`: Engram at 10k and 100k memories (1M with --full): ingest rate, database size,
 * search latency, memory use, and how well the approximate vector index agrees with exact
 * search. The memories carry synthetic clustered vectors (the real model would need hours for
 * 100k texts here); query embedding with the real model is timed separately and added. They
 * are extracted into the knowledge graph as on any write, and come in sessions of
 * `SESSION_TURNS`, so the default search follows the graph as it would for a real store; each
 * query is also run without the graph, to show what graph-aware recall costs.
 */
import { createLocalEmbedder, openEngram } from 'engram';

import { createBenchStore } from './bench-store.js';
import type { BenchOptions, BenchResult } from './bench-types.js';
import { machineInfo } from './machine.js';
import { quantile, textTable } from './stats.js';
import { createSyntheticEmbedder } from './synthetic-embedder.js';
import { inSessions, syntheticMemories, syntheticQueries, topicOf } from './synthetic-memories.js';

const BATCH = 5_000;
const QUERIES = 200;
/** Queries whose approximate top 10 is compared with the exact one. */
const RECALL_QUERIES = 100;

interface SizeResult {
  memories: number;
  ingestPerSecond: number;
  /** Null on PostgreSQL, whose data directory holds more than this run's tables. */
  databaseBytes: number | null;
  bytesPerMemory: number | null;
  /** The default search: hybrid with graph-aware recall. */
  searchMs: { p50: number; p95: number };
  /** The same queries with `graph: false`. */
  searchWithoutGraphMs: { p50: number; p95: number };
  graph: { entities: number; mentions: number };
  searchWithEmbeddingMs: { p50: number; p95: number };
  vectorSearchMs: { p50: number; p95: number };
  vectorRecallAt10: number;
  rssMiB: number;
}

export async function runScaleBenchmark(options: BenchOptions): Promise<BenchResult> {
  const sizes = options.full ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
  const queries = syntheticQueries(QUERIES);
  const embeddingMs = await timeQueryEmbedding(queries.slice(0, 50));
  const results: Record<string, SizeResult> = {};
  for (const size of sizes) {
    const result = await measureSize(size, queries, embeddingMs, options);
    results[String(size)] = result;
    // Each size as it finishes: a long run stopped early still told what it measured.
    options.log(`scale ${size}: ${JSON.stringify(result)}`);
  }
  const machine = machineInfo();
  const ms = (value: { p50: number; p95: number }) => `${value.p50.toFixed(1)} / ${value.p95.toFixed(1)}`;
  const backend = options.store === undefined ? 'SQLite' : 'PostgreSQL';
  const table = [
    `scale on ${backend}: synthetic memories with synthetic clustered 512-d vectors; ${machine.cores} cores (${machine.cpu}), node ${machine.node}`,
    `query embedding with the local model: p50 ${quantile(embeddingMs, 0.5).toFixed(1)} ms, p95 ${quantile(embeddingMs, 0.95).toFixed(1)} ms`,
    textTable(
      [
        'memories',
        'ingest/s',
        'MB',
        'KiB/mem',
        'search p50/p95 ms',
        'no graph p50/p95',
        '+embedding p50/p95',
        'vector-only p50/p95',
        'vector recall@10',
        'RSS MiB',
      ],
      Object.values(results).map((r) => [
        String(r.memories),
        r.ingestPerSecond.toFixed(0),
        r.databaseBytes === null ? '-' : (r.databaseBytes / 1e6).toFixed(0),
        r.bytesPerMemory === null ? '-' : (r.bytesPerMemory / 1024).toFixed(2),
        ms(r.searchMs),
        ms(r.searchWithoutGraphMs),
        ms(r.searchWithEmbeddingMs),
        ms(r.vectorSearchMs),
        r.vectorRecallAt10.toFixed(3),
        r.rssMiB.toFixed(0),
      ]),
    ),
  ].join('\n');
  return {
    table,
    json: {
      benchmark: 'scale',
      backend,
      machine,
      vectors: 'synthetic clustered 512-d',
      queryEmbeddingMs: { p50: quantile(embeddingMs, 0.5), p95: quantile(embeddingMs, 0.95) },
      sizes: results,
    },
  };
}

/** Times the local model embedding each query alone, after loading it. */
export async function timeQueryEmbedding(queries: readonly string[]): Promise<number[]> {
  const embedder = createLocalEmbedder();
  await embedder.embed(['load the model before timing']);
  const times: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await embedder.embed([query]);
    times.push(performance.now() - started);
  }
  return times;
}

async function measureSize(
  size: number,
  queries: readonly string[],
  embeddingMs: readonly number[],
  { log, store: storeUrl }: BenchOptions,
): Promise<SizeResult> {
  const database = await createBenchStore(`scale_${size}`, storeUrl);
  try {
    const embedder = createSyntheticEmbedder(topicOf);
    const store = database.open();
    const engram = await openEngram({ store, embedder });
    const memories = inSessions(syntheticMemories(size, size));
    const started = performance.now();
    for (let start = 0; start < size; start += BATCH) {
      await engram.rememberMany(memories.slice(start, start + BATCH));
      log(`scale ${size}: ${Math.min(start + BATCH, size)} memories`);
    }
    const ingestSeconds = (performance.now() - started) / 1000;

    await engram.search({ query: 'warm up the indexes', recordRetrieval: false });
    const searchMs: number[] = [];
    const searchWithoutGraphMs: number[] = [];
    // Alternating, so drift on a shared machine falls on both alike, and never the same query
    // twice in a row: the vector index keeps its last ranking for a repeated query. The graph's
    // half runs the queries half a list later, so neither half follows its own query.
    const half = Math.floor(queries.length / 2);
    for (const [i, query] of queries.entries()) {
      for (const [graph, text, times] of [
        [false, query, searchWithoutGraphMs],
        [true, queries[(i + half) % queries.length] as string, searchMs],
      ] as const) {
        const at = performance.now();
        await engram.search({ query: text, limit: 10, graph, recordRetrieval: false });
        times.push(performance.now() - at);
      }
    }
    const graph = await store.countGraph('default');
    const withEmbedding = searchMs.map((ms, i) => ms + (embeddingMs[i % embeddingMs.length] as number));

    const vectors = await embedder.embed(queries.slice(0, RECALL_QUERIES));
    const vectorMs: number[] = [];
    let agreed = 0;
    for (const vector of vectors) {
      const at = performance.now();
      const approximate = await store.searchVector({ tenant: 'default' }, vector, 10);
      vectorMs.push(performance.now() - at);
      const exact = new Set((await store.searchVector({ tenant: 'default' }, vector, 10, { exact: true })).map((hit) => hit.id));
      agreed += approximate.filter((hit) => exact.has(hit.id)).length;
    }
    const rssMiB = process.memoryUsage().rss / 2 ** 20;
    await engram.close();
    const databaseBytes = database.bytes();
    return {
      memories: size,
      ingestPerSecond: size / ingestSeconds,
      databaseBytes,
      bytesPerMemory: databaseBytes === null ? null : databaseBytes / size,
      searchMs: { p50: quantile(searchMs, 0.5), p95: quantile(searchMs, 0.95) },
      searchWithoutGraphMs: { p50: quantile(searchWithoutGraphMs, 0.5), p95: quantile(searchWithoutGraphMs, 0.95) },
      graph: { entities: graph.entities, mentions: graph.mentions },
      searchWithEmbeddingMs: { p50: quantile(withEmbedding, 0.5), p95: quantile(withEmbedding, 0.95) },
      vectorSearchMs: { p50: quantile(vectorMs, 0.5), p95: quantile(vectorMs, 0.95) },
      vectorRecallAt10: agreed / (vectors.length * 10),
      rssMiB,
    };
  } finally {
    await database.remove();
  }
}
