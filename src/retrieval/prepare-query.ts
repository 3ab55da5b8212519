/**
 * The first stage of a search: the query prepared once for every search of it. It starts the
 * work that depends on the query alone — the embedding, what the knowledge graph says about it,
 * the store's calibration sample — without awaiting any of it, and measures the query's own words.
 * The searches that follow (one, or a recall decision's wide search and its tiers' own) read ahead
 * while the embedding runs (gather-candidates.ts) and share what was prepared.
 */
import type { Embedder } from '../embedding/embedder.js';
import { startEmbedding } from '../embedding/pending-embedding.js';
import type { SearchMode } from '../model/search-request.js';
import type { CalibrationSample } from './calibration-sample.js';
import { type QueryGraph, readQueryGraph } from './graph-recall.js';
import { queryReadableShare } from './readable-share.js';
import type { RetrievalSettings } from './retrieval-settings.js';
import type { SearchReader } from './search-reader.js';
import { type SearchStrategy, strategyFor } from './search-strategy.js';
import { type WordMeasure, type WordQuery, wordQueryOf, wordSignalsFor } from './word-signals.js';

/** What a query is prepared from. */
export interface QueryRequest {
  query: string;
  mode: SearchMode;
  settings: RetrievalSettings;
  embedder: Embedder | null;
  /** The tenant searched: the graph and the calibration sample are the tenant's. */
  tenant: string;
  now: Date;
  /** Scopes in the caller's order, most specific first (for the scope factor). */
  scopes: readonly string[] | undefined;
  /**
   * The query's embedding when the caller has it or has started it (pending-embedding.ts);
   * started here when omitted and the mode embeds.
   */
  vector?: Float32Array | Promise<Float32Array> | undefined;
}

/**
 * How a search's relevance stands on the store's own calibration (store-calibration.ts): measured
 * on the tenant's sample (null when there is none: another mode, no vectors, or no samples kept),
 * or a shift already known.
 */
export type QueryCalibration =
  | { readonly kind: 'sample'; readonly sample: Promise<CalibrationSample> | null }
  | { readonly kind: 'fixed'; readonly shift: number };

/** A query ready to search with: what every search of it shares. */
export interface PreparedQuery {
  readonly text: string;
  readonly tenant: string;
  readonly strategy: SearchStrategy;
  readonly settings: RetrievalSettings;
  /** The query's embedding, known or on its way; null when the mode embeds nothing or there is no embedder. */
  readonly vector: Float32Array | Promise<Float32Array> | null;
  /** The share of the query the embedder reads (readable-share.ts). */
  readonly readable: number;
  /** The query's side of the word signals. */
  readonly words: WordQuery;
  /** Measures a memory's word signals for this query, each memory once across the searches. */
  readonly wordsOf: WordMeasure;
  /** What the graph says about the query: null when the mode does not follow it or the query names no entity the tenant has. */
  readonly graph: QueryGraph | null | Promise<QueryGraph | null>;
  readonly calibration: QueryCalibration;
}

/** Prepares `request.query`, starting its embedding and its graph and sample reads. */
export function prepareQuery(store: Pick<SearchReader, 'findEntities' | 'listRelations'>, request: QueryRequest): PreparedQuery {
  const { query, settings, tenant } = request;
  const strategy = strategyFor(request.mode, settings);
  const embedder = strategy.embeds ? request.embedder : null;
  const vector = embedder ? (request.vector ?? startEmbedding(embedder, query).vector) : null;
  const today = request.now.toISOString().slice(0, 10);
  const graph = strategy.followsGraph ? watched(readQueryGraph(store, tenant, query, today)) : null;
  const sample = strategy.calibrates && vector !== null ? (settings.samples?.sampleFor(tenant) ?? null) : null;
  const words = wordQueryOf(query, { now: request.now, scopes: request.scopes, settings: settings.factors });
  return {
    text: query,
    tenant,
    strategy,
    settings,
    vector,
    readable: queryReadableShare(embedder, query),
    words,
    wordsOf: wordSignalsFor(words, settings.memoryWords),
    graph,
    calibration: { kind: 'sample', sample: sample && watched(sample) },
  };
}

/**
 * The same query on a known store shift: a recall decision's tier searches stand on its wide
 * search's, so every candidate of one decision stands on one scale.
 */
export function withStoreShift(query: PreparedQuery, shift: number): PreparedQuery {
  return { ...query, calibration: { kind: 'fixed', shift } };
}

/** `promise`, its failure seen by whoever awaits it and none left unhandled when no search does. */
function watched<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
