/**
 * The engine's two whole-store operations: its statistics (the store's counts, the embedder, the
 * graph and the calibration sample) and reindexing (every memory re-embedded and its graph
 * extracted again).
 */
import type { Embedder } from '../embedding/embedder.js';
import { embedderLanguages } from '../embedding/embedder-languages.js';
import { describeEmbedder, NO_EMBEDDER_ID } from '../embedding/index-compatibility.js';
import { INTERNAL_KINDS } from '../model/internal-kinds.js';
import type { Memory } from '../model/memory.js';
import type { CalibrationSamples } from '../retrieval/calibration-sample.js';
import { describeStoreCalibration } from '../retrieval/store-calibration.js';
import type { Store } from '../store/store.js';
import type { ProgressListener } from './embed-batches.js';
import type { EngramStats, ReindexSummary, StatsRequest } from './engram-types.js';
import type { GraphSync } from './graph-sync.js';

/** What the statistics read. */
export interface StatsParts {
  store: Store;
  tenant: string;
  path: string | null;
  /** The embedder memories are stored with (null: none). */
  embedder: Embedder | null;
  samples: CalibrationSamples;
}

/**
 * Counts by state, kind, tier and scope, index and size. Engram's internal records are left out
 * of the counts unless `internal` asks for them; `internal.live` says how many there are.
 */
export async function engineStats(parts: StatsParts, options: StatsRequest): Promise<EngramStats> {
  const { store, tenant, embedder } = parts;
  const counted = options.internal === true;
  const [stats, internal, graph, sample] = await Promise.all([
    store.stats(tenant, { excludeKinds: counted ? undefined : INTERNAL_KINDS }),
    store.countMemories({ tenant, kinds: INTERNAL_KINDS }),
    store.countGraph(tenant),
    parts.samples.sampleFor(tenant),
  ]);
  return {
    ...stats,
    path: parts.path,
    embedder: embedder ? embedder.id : NO_EMBEDDER_ID,
    embedderLanguages: embedder ? embedderLanguages(embedder.id) : null,
    graph,
    calibration: describeStoreCalibration(sample, embedder !== null),
    internal: { live: internal, counted },
  };
}

/** What reindexing uses. */
export interface ReindexParts {
  store: Store;
  embedder: Embedder | null;
  graphSync: GraphSync;
  /** Embeds memories in batches (null without an embedder). */
  embed: (memories: readonly Memory[], onProgress?: ProgressListener) => Promise<Float32Array[] | null>;
}

/**
 * Re-embeds every memory (of every tenant) and swaps the vector index in one transaction, then
 * extracts every memory's graph again — which retries the ones whose extraction failed and
 * applies the current extractor to memories stored before it.
 */
export async function reindexStore(parts: ReindexParts, onProgress?: ProgressListener): Promise<ReindexSummary> {
  const all: Memory[] = [];
  for await (const memory of parts.store.iterateAllMemories()) all.push(memory);
  const vectors = await parts.embed(all, onProgress);
  const info = describeEmbedder(parts.embedder) ?? {
    model: (parts.embedder as Embedder).id,
    dimensions: vectors?.[0]?.length ?? 0,
  };
  onProgress?.({ phase: 'writing', done: 0, total: all.length });
  await parts.store.replaceVectorIndex(
    info,
    vectors ? all.map((memory, i) => ({ id: memory.id, vector: vectors[i] as Float32Array })) : [],
  );
  // Memories stored before extraction existed (or with it off), or whose extraction failed, get their graph now.
  const graph = await parts.graphSync.reextract(all);
  onProgress?.({ phase: 'writing', done: all.length, total: all.length });
  return { memories: all.length, embedder: info.model, dimensions: info.dimensions, extractionFailures: graph.failed };
}
