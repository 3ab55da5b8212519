/**
 * Hybrid search: candidates from the full-text index (BM25) and the vector index, each scored
 * with signals that mean the same thing for every query — word coverage, cosine similarity,
 * keyword overlap — fused into a calibrated relevance, then multiplied by the visible recency,
 * scope and exact-match factors. Other modes rank by one signal, for comparison and for
 * callers who want exactly that.
 */
import type { Embedder } from '../embedding/embedder.js';
import { startEmbedding } from '../embedding/pending-embedding.js';
import type { Memory } from '../model/memory.js';
import type { Fusion, SearchMode } from '../model/search-request.js';
import type { LexicalHit, LexicalSearch, MemoryFilter, VectorHit, VectorSearch } from '../store/store.js';
import { questionShare } from '../text/question-share.js';
import { calibrate, hybridRawScore, saturatedBm25 } from './calibration.js';
import type { CalibrationSample, CalibrationSamples } from './calibration-sample.js';
import type { FactorSettings, ScoreFactors } from './factors.js';
import { followGraph, type GraphDraft } from './follow-graph.js';
import { fusedScores } from './fused-rank.js';
import { fusedRelevance, fusedScale, type FusedSignal } from './fused-relevance.js';
import { type GraphReader, memoriesAbout, type QueryGraph, readQueryGraph } from './graph-recall.js';
import { readOnce } from './read-once.js';
import { countedCosine, queryReadableShare } from './readable-share.js';
import {
  NO_SHIFT,
  sampleShift,
  type SampleWordScores,
  sampleWordScores,
  shiftRelevance,
  type StoreShift,
} from './store-calibration.js';
import { type KeptMemoryWords, type WordMeasure, wordQueryOf, wordSignalsFor } from './word-signals.js';

// The modes and fusions are part of the search request (model/search-request.ts).
export { type Fusion, FUSIONS, SEARCH_MODES, type SearchMode } from '../model/search-request.js';

/** What was measured between the query and a memory. */
export interface SearchSignals {
  /** BM25 from the full-text index (higher is better); null when no query word matched. */
  bm25: number | null;
  /** Share of the query's content words in the memory (with its context, when it has one). */
  coverage: number;
  /**
   * Cosine similarity of the query's and the memory's embeddings, counted as far as the embedder
   * reads the query (readable-share.ts); null without vectors.
   */
  cosine: number | null;
  /** Seed 004's keyword overlap: shared words ÷ the larger word set. */
  keyword: number;
  /**
   * What graph-aware recall added to the raw hybrid score (see graph-recall.ts): 0 when the
   * query names an entity the store knows but no path reaches this memory; null when the
   * graph was not consulted (no entity named, another mode, reciprocal-rank fusion, or graph
   * recall switched off).
   */
  graph: number | null;
  /**
   * The graph-aware order's fused score (fused-rank.ts) and its search's scale when this search
   * ranked by it — the query names an entity the store knows and vectors are on; null otherwise.
   * Relevance is then `level × exp(−(best − score) / 22)` (fused-relevance.ts) instead of the
   * calibrated raw score.
   */
  fused: FusedSignal | null;
}

/** One result: the memory, its relevance, and every part of its score. */
export interface SearchHit {
  memory: Memory;
  /** The ranking score: the mode's base score × every factor. */
  score: number;
  /**
   * Relevance in [0, 1], on one scale for every query (see calibration.ts); the seeds'
   * thresholds apply to it. In hybrid mode the calibrated fusion less the store's shift
   * (store-calibration.ts); in the other modes the mode's own signal (coverage for bm25, cosine
   * for dense, overlap for keyword).
   */
  relevance: number;
  /**
   * The score before calibration, so an operator can see why a hit cleared or missed a
   * threshold: in hybrid mode the raw hybrid score with the graph's part added (calibration.ts
   * maps it onto relevance); in the other modes the mode's own signal, which relevance equals
   * before the cooldown.
   */
  raw: number;
  /**
   * What the store's own calibration took off this search's relevance (store-calibration.ts):
   * the same for every hit of one search, 0 on a young store, without vectors or outside hybrid mode.
   */
  storeShift: number;
  signals: SearchSignals;
  factors: ScoreFactors;
  /** How the knowledge graph reached this memory ("Caroline → support group"), or null. */
  via: string | null;
}

export interface RetrievalSettings {
  fusion: Fusion;
  /** Weight of word coverage against meaning in weighted fusion. */
  lexicalWeight: number;
  /** Candidates drawn from each index. */
  candidates: number;
  factors: FactorSettings;
  /** Graph-aware recall in hybrid mode with weighted fusion (see graph-recall.ts and `followsGraph`). */
  graph: boolean;
  /**
   * The stores' samples for per-store calibration (store-calibration.ts), kept by the engine;
   * without them relevance is the fixed curve alone.
   */
  samples?: CalibrationSamples | undefined;
  /** Memories' own words, kept by the engine across searches (word-signals.ts); split per search without. */
  memoryWords?: KeptMemoryWords | undefined;
}

export interface HybridSearchRequest {
  /** Only the parts a search reads: the two indexes, the memories they point at and the graph. */
  store: GraphReader & LexicalSearch & VectorSearch;
  embedder: Embedder | null;
  filter: MemoryFilter;
  query: string;
  limit: number;
  mode: SearchMode;
  /** Scopes in the caller's order, most specific first (for the scope factor). */
  scopes: readonly string[] | undefined;
  now: Date;
  minRelevance: number;
  settings: RetrievalSettings;
  /**
   * A search that asks whether anything close exists rather than for all of it: the vector
   * index returns what its first candidates hold (see VectorSearch.searchVector), and the graph
   * adds no memories about the query's entities (the candidates' graph parts still count).
   */
  bounded?: boolean | undefined;
  /**
   * The query's embedding when the caller already has it (several searches for one query), or
   * has started it (pending-embedding.ts): the full-text search and the graph's reads run before
   * it is awaited, while a worker thread's model works.
   */
  queryVector?: Float32Array | Promise<Float32Array> | undefined;
  /**
   * What the graph says about the query when the caller has already read it (several searches
   * for one query; see readQueryGraph): null when the query names no entity the tenant has.
   * Read here when omitted and the search follows the graph.
   */
  queryGraph?: QueryGraph | null | undefined;
  /**
   * What the store's calibration takes off relevance, when the caller already knows it for this
   * query (the tier searches of one recall decision take the wide search's, so every candidate
   * of one decision stands on one scale). Measured here when omitted.
   */
  storeShift?: number | undefined;
  /**
   * The word signals of the memories drafted (word-signals.ts), when the caller measures for
   * several searches of one query at one moment from one list of scopes, with these factor
   * settings: each memory is measured once for them all. Measured per search when omitted.
   */
  wordSignals?: WordMeasure | undefined;
  /**
   * Seed 001's retrieval cooldown: a multiplier per memory applied to relevance and score
   * before `minRelevance` is checked. None when omitted.
   */
  cooldown?: ((memory: Memory) => number) | undefined;
}

/** Reciprocal-rank fusion's constant, from the original paper. */
const RRF_K = 60;

/** A hit being scored: the hybrid score before calibration and what the graph added to it. */
interface Draft extends GraphDraft {
  signals: SearchSignals;
  factors: ScoreFactors;
}

/**
 * Whether a search follows the knowledge graph: in hybrid mode with weighted fusion, when graph
 * recall is on. Reciprocal-rank fusion ranks a memory by its places in the two indexes' lists,
 * so a memory only the graph found would score 0 and be dropped, and the graph's part would move
 * relevance but not the order; the graph is not consulted there.
 */
export function followsGraph(mode: SearchMode, settings: Pick<RetrievalSettings, 'fusion' | 'graph'>): boolean {
  return mode === 'hybrid' && settings.fusion === 'weighted' && settings.graph;
}

/** Finds up to `limit` memories for `query`, best first. */
export async function hybridSearch(request: HybridSearchRequest): Promise<SearchHit[]> {
  const { filter, query, mode, settings } = request;
  // A memory is read once however many stages ask for it, and what is read ahead is kept.
  const store = readOnce(request.store);
  const pool = Math.max(settings.candidates, request.limit * 2);
  const embedder = mode === 'hybrid' || mode === 'dense' ? request.embedder : null;
  const embedding = embedder ? (request.queryVector ?? startEmbedding(embedder, query).vector) : null;
  const readable = queryReadableShare(embedder, query);
  // Everything that does not need the query's vector is asked for before it is awaited.
  const lexicalSearch =
    mode === 'dense'
      ? ([] as LexicalHit[])
      : store.searchLexical(filter, query, pool, { skipIfOnlyCommon: mode === 'hybrid' && embedding !== null });
  const graphRead = !followsGraph(mode, settings)
    ? null
    : request.queryGraph !== undefined
      ? request.queryGraph
      : readQueryGraph(store, filter.tenant, query);
  const sampling =
    mode === 'hybrid' && embedding !== null && request.storeShift === undefined
      ? (settings.samples?.sampleFor(filter.tenant) ?? null)
      : null;
  const wordQuery = wordQueryOf(query, { now: request.now, scopes: request.scopes, settings: settings.factors });
  const wordsOf = request.wordSignals ?? wordSignalsFor(wordQuery, settings.memoryWords);
  const ahead = embedding === null ? null : readAhead(store, filter, request.bounded ?? false, lexicalSearch, graphRead, wordsOf);
  const sampleWords =
    sampling === null ? null : sampleWordsAhead(sampling, lexicalSearch, graphRead, wordQuery.stems, settings.lexicalWeight);
  // Awaited together: any one failing fails the search, and none is left unwatched.
  const [queryVector, , , , , measuredSample] = await Promise.all([
    embedding,
    lexicalSearch,
    graphRead,
    sampling,
    ahead,
    sampleWords,
  ]);
  const [lexical, vector] = await Promise.all([
    lexicalSearch,
    queryVector ? store.searchVector(filter, queryVector, pool, { bounded: request.bounded ?? false }) : ([] as VectorHit[]),
  ]);
  const cosines = new Map(vector.map((hit) => [hit.id, hit.similarity]));
  const bm25 = bm25Of(lexical);
  const ranks = { lexical: rankOf(lexical), vector: rankOf(vector) };
  const graph = await graphRead;
  const shift =
    request.storeShift !== undefined
      ? { ...NO_SHIFT, shift: request.storeShift }
      : await measureShift(
          request,
          await sampling,
          { queryVector, readable, stems: wordQuery.stems, bm25, graph },
          measuredSample,
        );

  /** Reads and scores these memories; cosines are read for the ones no index returned. */
  const draft = async (ids: readonly string[]): Promise<Draft[]> => {
    const memories = await store.getMemories(filter.tenant, ids);
    const missing = queryVector && mode === 'hybrid' ? ids.filter((id) => !cosines.has(id)) : [];
    for (const [id, similarity] of await store.vectorSimilarities(filter.tenant, missing, queryVector ?? new Float32Array())) {
      cosines.set(id, similarity);
    }
    return memories.map((memory): Draft => {
      const measured = wordsOf(memory);
      const signals: SearchSignals = {
        bm25: bm25.get(memory.id) ?? null,
        coverage: measured.coverage,
        cosine: countedCosine(cosines.get(memory.id) ?? null, readable),
        keyword: measured.keyword,
        graph: null,
        fused: null,
      };
      const factors: ScoreFactors = { ...measured.factors, cooldown: request.cooldown?.(memory) ?? 1 };
      return {
        memory,
        signals,
        factors,
        raw: rawRelevance(signals, mode, embedder !== null, settings.lexicalWeight),
        graph: null,
      };
    });
  };

  /** A draft's raw score: in hybrid mode the raw hybrid score with the graph's part added. */
  const rawOf = (d: Draft): number => (mode === 'hybrid' ? d.raw + (d.graph?.boost ?? 0) : d.raw);

  /**
   * What the graph stage ranks by before the fused order is known (its seeds, the turns beside
   * them): the calibrated raw score × every factor. The store's shift, one factor for every hit,
   * is left out: it changes no order.
   */
  const summedScore = (d: Draft): number => {
    const { cooldown, recency, scope, exact } = d.factors;
    return calibrate(rawOf(d)) * cooldown * recency * scope * exact;
  };

  /**
   * Records the fused order's score of every candidate of a search the graph has spoken for (the
   * query names an entity, vectors are on): fused-rank.ts, read over all the candidates for their
   * sessions' standing.
   */
  const addFusedScores = (all: readonly Draft[]): void => {
    const scores = fusedScores(
      all.map((d) => ({
        features: {
          coverage: d.signals.coverage,
          bm25: d.signals.bm25,
          cosine: d.signals.cosine ?? 0,
          about: d.graph?.about ?? false,
          dated: d.graph?.dated ?? false,
          besideBest: d.around?.besideBest ?? null,
          lexicalRank: ranks.lexical.get(d.memory.id) ?? null,
          length: d.memory.text.length,
          neighbourRaw: d.around?.neighbourRaw ?? 0,
          questionShare: questionShare(d.memory.text),
        },
        session: d.memory.sessionId,
      })),
    );
    const scale = fusedScale(all.map((d, i) => ({ fused: scores[i] ?? 0, relevance: calibrate(rawOf(d)) })));
    all.forEach((d, i) => {
      d.signals.fused = { score: scores[i] ?? 0, ...scale };
    });
  };

  let drafts = await draft([...new Set([...lexical.map((hit) => hit.id), ...vector.map((hit) => hit.id)])]);
  if (followsGraph(mode, settings)) {
    drafts = await followGraph({
      store,
      filter,
      graph,
      drafts,
      draft,
      score: summedScore,
      bounded: request.bounded ?? false,
    });
    // The weights were fitted with meaning in the mix: without vectors the fixed sum ranks.
    if (graph !== null && queryVector !== null) addFusedScores(drafts);
  }
  const hits = drafts.map((d): SearchHit => {
    const raw = rawOf(d);
    const { cooldown, recency, scope, exact } = d.factors;
    const curved = curveRelevance({ mode, fusion: settings.fusion, signals: d.signals, raw, rrf: rrfOf(ranks, d.memory.id) });
    const relevance = shiftRelevance(curved, shift.shift) * cooldown;
    return {
      memory: d.memory,
      // The one order every list shows (docs/search.md): relevance × the visible factors.
      score: relevance * recency * scope * exact,
      relevance,
      raw,
      storeShift: shift.shift,
      signals: d.signals,
      factors: d.factors,
      via: d.graph?.via ?? null,
    };
  });
  return hits
    .filter((hit) => hit.relevance >= request.minRelevance && hit.score > 0)
    .sort((a, b) => b.score - a.score || a.memory.id.localeCompare(b.memory.id))
    .slice(0, request.limit);
}

/**
 * Reads and measures, while the query is embedded, what scoring will need once the vector
 * answers: the full-text hits' memories and word signals and, when the search follows the graph,
 * the entities they mention — and the same for the memories about the query's entities, which
 * the graph stage adds (follow-graph.ts; not in a bounded search). `store` and `wordsOf` keep
 * them (read-once.ts, word-signals.ts), so the stages after the vector search find them ready.
 */
async function readAhead(
  store: HybridSearchRequest['store'],
  filter: MemoryFilter,
  bounded: boolean,
  lexicalSearch: LexicalHit[] | Promise<LexicalHit[]>,
  graphRead: QueryGraph | null | Promise<QueryGraph | null>,
  wordsOf: WordMeasure,
): Promise<void> {
  const [lexical, graph] = await Promise.all([lexicalSearch, graphRead]);
  const about = graph === null || bounded ? [] : await memoriesAbout(store, filter, graph);
  const ids = [...new Set([...lexical.map((hit) => hit.id), ...about])];
  for (const memory of await store.getMemories(filter.tenant, ids)) wordsOf(memory);
  if (graph !== null) await store.listMentionsInMemories(filter.tenant, ids);
}

/**
 * The query's word and graph scores against the store's calibration sample (store-calibration.ts),
 * measured once the full-text hits and the graph are read: they need no vector.
 */
async function sampleWordsAhead(
  sampling: CalibrationSample | null | Promise<CalibrationSample | null>,
  lexicalSearch: LexicalHit[] | Promise<LexicalHit[]>,
  graphRead: QueryGraph | null | Promise<QueryGraph | null>,
  stems: ReadonlySet<string>,
  lexicalWeight: number,
): Promise<SampleWordScores | null> {
  const [sample, lexical, graph] = await Promise.all([sampling, lexicalSearch, graphRead]);
  return sample === null ? null : sampleWordScores(sample, { stems, bm25: bm25Of(lexical), graph, lexicalWeight });
}

/** What the store's own calibration takes off this search's relevance (store-calibration.ts). */
async function measureShift(
  request: HybridSearchRequest,
  sample: CalibrationSample | null,
  query: {
    queryVector: Float32Array | null;
    readable: number;
    stems: ReadonlySet<string>;
    bm25: ReadonlyMap<string, number>;
    graph: QueryGraph | null;
  },
  measured: SampleWordScores | null,
): Promise<StoreShift> {
  const { lexicalWeight } = request.settings;
  if (request.mode !== 'hybrid' || query.queryVector === null || sample === null) return NO_SHIFT;
  const { stems, bm25, graph, readable } = query;
  return sampleShift(sample, { stems, vector: query.queryVector, readable, bm25, graph, lexicalWeight }, measured);
}

/** The full-text hits' BM25 by memory id. */
function bm25Of(lexical: readonly LexicalHit[]): Map<string, number> {
  return new Map(lexical.map((hit) => [hit.id, hit.score]));
}

/** The mode's relevance before calibration: hybrid's raw score, or the one signal of the other modes. */
function rawRelevance(signals: SearchSignals, mode: SearchMode, hasVectors: boolean, lexicalWeight: number): number {
  const cosine = Math.max(0, signals.cosine ?? 0);
  switch (mode) {
    case 'bm25':
      // Saturated as in the hybrid score (calibration.ts): in [0, 1], in BM25's own order.
      return saturatedBm25(signals.bm25);
    case 'dense':
      return cosine;
    case 'keyword':
      return signals.keyword;
    case 'hybrid':
      return hybridRawScore(signals, hasVectors, lexicalWeight);
  }
}

/**
 * A hit's relevance before the store's shift and the cooldown — what the order follows and the
 * thresholds read: in a search the graph ranks, its fused score on the fused curve
 * (fused-relevance.ts); in weighted hybrid search, the calibrated raw score; with reciprocal-rank
 * fusion, the fused rank; in the other modes, the mode's own signal.
 */
function curveRelevance(parts: { mode: SearchMode; fusion: Fusion; signals: SearchSignals; raw: number; rrf: number }): number {
  const { mode, signals, raw } = parts;
  if (signals.fused !== null) return fusedRelevance(signals.fused.score, signals.fused);
  if (mode !== 'hybrid') return raw;
  return parts.fusion === 'rrf' ? parts.rrf : calibrate(raw);
}

/** Reciprocal-rank fusion of the memory's places in the two indexes' lists, scaled so a memory first in both scores 1. */
function rrfOf(ranks: { lexical: Map<string, number>; vector: Map<string, number> }, id: string): number {
  const rrf = [ranks.lexical.get(id), ranks.vector.get(id)].reduce<number>(
    (sum, rank) => sum + (rank === undefined ? 0 : 1 / (RRF_K + rank)),
    0,
  );
  return (rrf * (RRF_K + 1)) / 2;
}

function rankOf(hits: readonly { id: string }[]): Map<string, number> {
  return new Map(hits.map((hit, index) => [hit.id, index + 1]));
}
