/**
 * Search modes as strategies. Every search runs the same stages (hybrid-search.ts); a mode is a
 * choice among them — which indexes it asks, whether it follows the knowledge graph and
 * calibrates on the store's sample — and how it turns a draft's signals into a raw score and a
 * relevance. Hybrid search with weighted fusion (the graph on or off) or with reciprocal-rank
 * fusion, and the single-signal modes bm25, dense and keyword, are each one object here.
 */
import type { SearchMode } from '../model/search-request.js';
import type { LexicalSearchOptions } from '../store/lexical-search.js';
import { calibrate, hybridRawScore, saturatedBm25 } from './calibration.js';
import type { Draft } from './draft-candidates.js';
import { fusedRelevance } from './fused-relevance.js';
import { graphStage, type GraphStageParts, rawWithGraph } from './graph-stage.js';
import type { RetrievalSettings } from './retrieval-settings.js';
import type { SearchSignals } from './search-hit.js';

/** Where a candidate stood in each index's list, from 1; absent when that index did not return it. */
export interface IndexRanks {
  lexical: ReadonlyMap<string, number>;
  vector: ReadonlyMap<string, number>;
}

/** How one mode searches. */
export interface SearchStrategy {
  readonly mode: SearchMode;
  /** Whether the query is embedded and the vector index asked. */
  readonly embeds: boolean;
  /** The full-text search's options, or null when this mode does not ask the full-text index. */
  lexicalOptions(hasVector: boolean): LexicalSearchOptions | null;
  /** Whether the knowledge graph is read for the query and followed (graph-stage.ts). */
  readonly followsGraph: boolean;
  /** Whether, with the query's vector, the store's calibration sample shifts relevance (store-calibration.ts). */
  readonly calibrates: boolean;
  /** Whether cosines are read for candidates the vector index did not return. */
  readonly readsMissingCosines: boolean;
  /** The mode's relevance before calibration, from a draft's signals. */
  raw(signals: SearchSignals, hasVectors: boolean): number;
  /** The raw score a hit shows: in hybrid search with the graph's part added. */
  shownRaw(d: Draft): number;
  /** A hit's relevance before the store's shift and the cooldown: what the order follows and the thresholds read. */
  relevance(d: Draft, raw: number, ranks: IndexRanks): number;
  /** The graph stage, or the drafts as they are. */
  expand(drafts: Draft[], parts: GraphStageParts): Promise<Draft[]>;
}

/** Reciprocal-rank fusion's constant, from the original paper. */
const RRF_K = 60;

/** The strategy for `mode` with these settings. */
export function strategyFor(
  mode: SearchMode,
  settings: Pick<RetrievalSettings, 'fusion' | 'graph' | 'lexicalWeight'>,
): SearchStrategy {
  return STRATEGIES[mode](settings);
}

const STRATEGIES: Record<
  SearchMode,
  (settings: Pick<RetrievalSettings, 'fusion' | 'graph' | 'lexicalWeight'>) => SearchStrategy
> = {
  hybrid: ({ fusion, graph, lexicalWeight }) =>
    fusion === 'rrf' ? rrfHybrid(lexicalWeight) : weightedHybrid(lexicalWeight, graph),
  // Saturated as in the hybrid score (calibration.ts): in [0, 1], in BM25's own order.
  bm25: () => singleSignal('bm25', { embeds: false, asksFullText: true }, (signals) => saturatedBm25(signals.bm25)),
  dense: () => singleSignal('dense', { embeds: true, asksFullText: false }, (signals) => Math.max(0, signals.cosine ?? 0)),
  keyword: () => singleSignal('keyword', { embeds: false, asksFullText: true }, (signals) => signals.keyword),
};

const keepDrafts = async (drafts: Draft[]): Promise<Draft[]> => drafts;

/** A mode ranked by one signal, which is its relevance. */
function singleSignal(
  mode: SearchMode,
  sources: { embeds: boolean; asksFullText: boolean },
  signal: (signals: SearchSignals) => number,
): SearchStrategy {
  return {
    mode,
    embeds: sources.embeds,
    lexicalOptions: () => (sources.asksFullText ? { skipIfOnlyCommon: false } : null),
    followsGraph: false,
    calibrates: false,
    readsMissingCosines: false,
    raw: signal,
    shownRaw: (d) => d.raw,
    relevance: (_, raw) => raw,
    expand: keepDrafts,
  };
}

/** What both fusions of hybrid search share: both indexes, the store's calibration, the raw hybrid score. */
function hybridSources(lexicalWeight: number): Omit<SearchStrategy, 'followsGraph' | 'relevance' | 'expand'> {
  return {
    mode: 'hybrid',
    embeds: true,
    // With vectors, a query of only common words finds nothing particular by its words.
    lexicalOptions: (hasVector) => ({ skipIfOnlyCommon: hasVector }),
    calibrates: true,
    readsMissingCosines: true,
    raw: (signals, hasVectors) => hybridRawScore(signals, hasVectors, lexicalWeight),
    shownRaw: rawWithGraph,
  };
}

/**
 * Weighted fusion: the calibrated raw score, or — in a search the graph ranks (fused-rank.ts) —
 * the fused score on the fused curve (fused-relevance.ts). With `graph`, the graph is followed.
 */
export function weightedHybrid(lexicalWeight: number, graph: boolean): SearchStrategy {
  return {
    ...hybridSources(lexicalWeight),
    followsGraph: graph,
    relevance: (d, raw) => (d.signals.fused !== null ? fusedRelevance(d.signals.fused.score, d.signals.fused) : calibrate(raw)),
    expand: graph ? graphStage : keepDrafts,
  };
}

/**
 * Reciprocal-rank fusion: relevance is the fused rank. It ranks a memory by its places in the two
 * indexes' lists, so a memory only the graph found would score 0 and be dropped, and the graph's
 * part would move relevance but not the order: the graph is not consulted.
 */
export function rrfHybrid(lexicalWeight: number): SearchStrategy {
  return {
    ...hybridSources(lexicalWeight),
    followsGraph: false,
    relevance: (d, _, ranks) => rrfOf(ranks, d.memory.id),
    expand: keepDrafts,
  };
}

/** Reciprocal-rank fusion of the memory's places in the two indexes' lists, scaled so a memory first in both scores 1. */
export function rrfOf(ranks: IndexRanks, id: string): number {
  const rrf = [ranks.lexical.get(id), ranks.vector.get(id)].reduce<number>(
    (sum, rank) => sum + (rank === undefined ? 0 : 1 / (RRF_K + rank)),
    0,
  );
  return (rrf * (RRF_K + 1)) / 2;
}
