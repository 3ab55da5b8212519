/**
 * Search as named stages. Hybrid search draws candidates from the full-text index (BM25) and the
 * vector index, scores each with signals that mean the same thing for every query — word
 * coverage, cosine similarity, keyword overlap — fused into a calibrated relevance, then
 * multiplied by the visible recency, scope and exact-match factors. Other modes rank by one
 * signal, for comparison and for callers who want exactly that. Every mode runs the same stages;
 * the mode's strategy (search-strategy.ts) chooses among them:
 *
 * 1. prepare the query (prepare-query.ts): start its embedding, the graph's and the sample's reads;
 * 2. gather candidates from the sources (gather-candidates.ts), reading ahead while it is embedded;
 * 3. calibrate on the store's sample (calibrate-search.ts), its word part also ahead of the vector;
 * 4. draft the candidates (draft-candidates.ts) and follow the graph (graph-stage.ts);
 * 5. rank (rank-hits.ts).
 */
import type { Embedder } from '../embedding/embedder.js';
import type { Memory } from '../model/memory.js';
import type { SearchMode } from '../model/search-request.js';
import { readView } from '../store/kept/kept-reads.js';
import type { MemoryFilter } from '../store/memory-filter.js';
import { calibrateSearch } from './calibrate-search.js';
import { draftCandidates } from './draft-candidates.js';
import { gatherCandidates } from './gather-candidates.js';
import { type PreparedQuery, prepareQuery } from './prepare-query.js';
import { rankHits } from './rank-hits.js';
import type { RetrievalSettings } from './retrieval-settings.js';
import type { SearchHit } from './search-hit.js';
import type { SearchReader } from './search-reader.js';

// The modes and fusions are part of the search request (model/search-request.ts).
export { type Fusion, FUSIONS, SEARCH_MODES, type SearchMode } from '../model/search-request.js';
export type { RetrievalSettings } from './retrieval-settings.js';
export type { SearchHit, SearchSignals } from './search-hit.js';

/** One search of a prepared query: where it looks and what it keeps. */
export interface PreparedSearch {
  /** Only the parts a search reads: the two indexes, the memories they point at and the graph. */
  store: SearchReader;
  query: PreparedQuery;
  /** Its tenant is the prepared query's. */
  filter: MemoryFilter;
  limit: number;
  minRelevance: number;
  /**
   * A search that asks whether anything close exists rather than for all of it: the vector
   * index returns what its first candidates hold (see VectorSearch.searchVector), and the graph
   * adds no memories about the query's entities (the candidates' graph parts still count).
   */
  bounded?: boolean | undefined;
  /**
   * Seed 001's retrieval cooldown: a multiplier per memory applied to relevance and score
   * before `minRelevance` is checked. None when omitted.
   */
  cooldown?: ((memory: Memory) => number) | undefined;
}

/** One search of a query, prepared here. */
export interface HybridSearchRequest extends Omit<PreparedSearch, 'query'> {
  query: string;
  mode: SearchMode;
  embedder: Embedder | null;
  /** Scopes in the caller's order, most specific first (for the scope factor). */
  scopes: readonly string[] | undefined;
  now: Date;
  settings: RetrievalSettings;
}

/** Finds up to `limit` memories for `query`, best first. */
export async function hybridSearch(request: HybridSearchRequest): Promise<SearchHit[]> {
  // A memory is read once however many stages ask for it, and what is read ahead is kept.
  const store = readView(request.store);
  const { mode, settings, embedder, now, scopes, filter, limit, minRelevance, bounded, cooldown } = request;
  const query = prepareQuery(store, { query: request.query, mode, settings, embedder, tenant: filter.tenant, now, scopes });
  return searchPrepared({ store, query, filter, limit, minRelevance, bounded, cooldown });
}

/** Finds up to `limit` memories for a prepared query, best first. */
export async function searchPrepared(request: PreparedSearch): Promise<SearchHit[]> {
  const { query, filter, limit, bounded = false } = request;
  const { strategy } = query;
  const store = readView(request.store);
  const pool = Math.max(query.settings.candidates, limit * 2);
  const calibration = calibrateSearch(query);
  const found = await gatherCandidates({ store, query, filter, pool, bounded, whileEmbedding: calibration.ahead });
  const { shift } = await calibration.shift(found);
  const hasVectors = query.vector !== null;
  const draft = draftCandidates({
    store,
    tenant: filter.tenant,
    queryVector: found.queryVector,
    vector: found.vector,
    bm25: found.bm25,
    readable: query.readable,
    wordsOf: query.wordsOf,
    readsMissingCosines: strategy.readsMissingCosines,
    raw: (signals) => strategy.raw(signals, hasVectors),
    cooldown: request.cooldown,
  });
  const drafts = await strategy.expand(await draft([...new Set([...found.lexical, ...found.vector].map((hit) => hit.id))]), {
    store,
    filter,
    graph: found.graph,
    draft,
    bounded,
    hasVector: found.queryVector !== null,
    lexicalRanks: found.ranks.lexical,
  });
  return rankHits(drafts, { strategy, storeShift: shift, ranks: found.ranks, minRelevance: request.minRelevance, limit });
}
