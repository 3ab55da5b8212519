/**
 * `bench activation`: the cost of one activation decision (working set, three tier searches,
 * scoring, quotas, MMR, receipt) at 10k and 100k memories, with and without the query
 * embedding, next to a plain top-10 search on the same store. Memories carry synthetic
 * clustered vectors (the real model would need hours for 100k texts here); the local model's
 * query embedding is timed on its own and added, and each turn is also taken once more while
 * the model embeds the query in its worker threads as an engine's default embedder does
 * (model-paced-embedder.ts), which times what the decision reads while the model works. The stores are extracted into the knowledge
 * graph and come in sessions of `SESSION_TURNS`, so the default decision includes graph-aware
 * recall as it would on a real store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Embedder, manualClock, openEngram } from 'engram';
import { createEmbedderFromConfig, SqliteStore } from 'engram/internal';
import { parseConfig } from 'engram/model';

import type { BenchOptions, BenchResult } from './bench-types.js';
import { openBenchEmbedder } from './embedding-cache.js';
import { machineInfo } from './machine.js';
import { modelPaced } from './model-paced-embedder.js';
import { timeQueryEmbedding } from './scale.js';
import { quantile, textTable } from './stats.js';
import { createSyntheticEmbedder } from './synthetic-embedder.js';
import { inSessions, syntheticMemories, syntheticQueries, topicOf } from './synthetic-memories.js';

const BATCH = 5_000;
const TURNS = 200;
const LOCAL_MODEL_SIZE = 10_000;
const LOCAL_MODEL_TURNS = 100;

interface Percentiles {
  p50: number;
  p95: number;
}

interface SizeResult {
  memories: number;
  activationMs: Percentiles;
  activationWithEmbeddingMs: Percentiles;
  /** Whole `beforeTurn`s while the model embeds the query in its worker threads. */
  beforeTurnWithModelMs: Percentiles;
  searchMs: Percentiles;
  injectedPerTurn: number;
}

const percentiles = (values: readonly number[]): Percentiles => ({ p50: quantile(values, 0.5), p95: quantile(values, 0.95) });

export async function runActivationBenchmark(options: BenchOptions): Promise<BenchResult> {
  const sizes = options.full ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
  const queries = syntheticQueries(TURNS);
  const embeddingMs = await timeQueryEmbedding(queries.slice(0, 50));
  const model = await defaultModel();
  const results: SizeResult[] = [];
  for (const size of sizes) results.push(await measureSize(size, queries, embeddingMs, model, options.log));
  const local = await measureWithLocalModel(LOCAL_MODEL_SIZE, queries.slice(0, LOCAL_MODEL_TURNS), model, options.log);
  const machine = machineInfo();
  const ms = (value: Percentiles) => `${value.p50.toFixed(1)} / ${value.p95.toFixed(1)}`;
  const table = [
    `activation: default policy, one session of ${TURNS} turns; synthetic 512-d vectors; ${machine.cores} cores (${machine.cpu}), node ${machine.node}`,
    `query embedding with the local model: p50 ${quantile(embeddingMs, 0.5).toFixed(1)} ms, p95 ${quantile(embeddingMs, 0.95).toFixed(1)} ms`,
    textTable(
      [
        'memories',
        'activation p50/p95 ms',
        '+ embedding, summed',
        'beforeTurn, model in a worker',
        'top-10 search p50/p95',
        'ratio p50',
        'injected/turn',
      ],
      results.map((r) => [
        String(r.memories),
        ms(r.activationMs),
        ms(r.activationWithEmbeddingMs),
        ms(r.beforeTurnWithModelMs),
        ms(r.searchMs),
        (r.activationMs.p50 / r.searchMs.p50).toFixed(2),
        r.injectedPerTurn.toFixed(2),
      ]),
    ),
    '',
    `beforeTurn with the local model, ${LOCAL_MODEL_SIZE} memories embedded by it, ${LOCAL_MODEL_TURNS} turns (query embedding included):`,
    `  p50 ${local.beforeTurnMs.p50.toFixed(1)} ms, p95 ${local.beforeTurnMs.p95.toFixed(1)} ms; activation without the embedding ` +
      `p50 ${local.activationMs.p50.toFixed(1)} ms; ${local.injectedPerTurn.toFixed(2)} memories injected per turn`,
  ].join('\n');
  return {
    table,
    json: { benchmark: 'activation', machine, queryEmbeddingMs: percentiles(embeddingMs), sizes: results, localModel: local },
  };
}

async function measureSize(
  size: number,
  queries: readonly string[],
  embeddingMs: readonly number[],
  model: Embedder,
  log: (line: string) => void,
): Promise<SizeResult> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-activation-'));
  try {
    const clock = manualClock('2026-06-01T09:00:00.000Z');
    const embedder = modelPaced(createSyntheticEmbedder(topicOf), model);
    const engram = await openEngram({ store: new SqliteStore(path.join(directory, 'activation.db')), embedder, clock });
    // Extracted as on any write, and in sessions, so activation follows the graph as it would
    // for a real store (half the queries name a person).
    const memories = inSessions(syntheticMemories(size, size));
    for (let start = 0; start < size; start += BATCH) {
      await engram.rememberMany(memories.slice(start, start + BATCH));
      log(`activation ${size}: ${Math.min(start + BATCH, size)} memories`);
    }
    const session = engram.session({ id: 'bench' });
    // A second conversation asks the same questions while the model embeds them.
    const paced = engram.session({ id: 'bench-model' });
    await session.beforeTurn('warm up the indexes');
    const activation: number[] = [];
    const withModel: number[] = [];
    const search: number[] = [];
    let injected = 0;
    for (const query of queries) {
      clock.advance(60_000);
      const { receipt, memories: chosen } = await session.beforeTurn(query);
      // The receipt times the decision; the synthetic embedder's share is taken out.
      activation.push((receipt?.latencyMs.total ?? 0) - (receipt?.latencyMs.embed ?? 0));
      injected += chosen.length;
      embedder.paced = true;
      let at = performance.now();
      await paced.beforeTurn(query);
      withModel.push(performance.now() - at);
      embedder.paced = false;
      at = performance.now();
      await engram.search({ query, limit: 10, recordRetrieval: false });
      search.push(performance.now() - at);
    }
    await engram.close();
    const withEmbedding = activation.map((value, i) => value + (embeddingMs[i % embeddingMs.length] as number));
    return {
      memories: size,
      activationMs: percentiles(activation),
      activationWithEmbeddingMs: percentiles(withEmbedding),
      beforeTurnWithModelMs: percentiles(withModel),
      searchMs: percentiles(search),
      injectedPerTurn: injected / queries.length,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * `beforeTurn` as an agent meets it: memories embedded by the local model (through the bench's
 * embedding cache, so only the first run pays for 10k texts), then a fresh engine on the same
 * file whose query embeddings are computed by the model every turn, in its worker threads as an
 * engine opens it by default.
 */
async function measureWithLocalModel(
  size: number,
  queries: readonly string[],
  model: Embedder,
  log: (line: string) => void,
): Promise<{ beforeTurnMs: Percentiles; activationMs: Percentiles; injectedPerTurn: number }> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-activation-local-'));
  const file = path.join(directory, 'activation.db');
  try {
    const cached = openBenchEmbedder();
    const writer = await openEngram({ path: file, embedder: cached.embedder, config: {} });
    const memories = inSessions(syntheticMemories(size, size));
    for (let start = 0; start < size; start += BATCH) {
      await writer.rememberMany(memories.slice(start, start + BATCH));
      log(`activation, local model: ${Math.min(start + BATCH, size)} memories`);
    }
    await writer.close();
    await cached.close();
    const clock = manualClock('2026-06-01T09:00:00.000Z');
    const engram = await openEngram({ path: file, embedder: model, config: {}, clock });
    const session = engram.session({ id: 'bench' });
    await session.beforeTurn('load the model before timing');
    const wall: number[] = [];
    const activation: number[] = [];
    let injected = 0;
    for (const query of queries) {
      clock.advance(60_000);
      const at = performance.now();
      const { receipt, memories: chosen } = await session.beforeTurn(query);
      wall.push(performance.now() - at);
      activation.push((receipt?.latencyMs.total ?? 0) - (receipt?.latencyMs.embed ?? 0));
      injected += chosen.length;
    }
    await engram.close();
    return { beforeTurnMs: percentiles(wall), activationMs: percentiles(activation), injectedPerTurn: injected / queries.length };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The model as an engine opens it by default (in worker threads, one per core), every worker warm. */
async function defaultModel(): Promise<Embedder> {
  const model = createEmbedderFromConfig(parseConfig({}).embedding);
  if (model === null) throw new Error('the default configuration names no embedder');
  // Enough texts for a batch per worker, so each loads the model before anything is timed.
  await model.embed(Array.from({ length: 64 }, (_, i) => `load the model before timing ${i}`));
  return model;
}
