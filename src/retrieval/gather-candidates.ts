/**
 * The gathering stage: candidates from the two sources, the full-text index and the vector
 * index. The full-text search is asked first; while the query is embedded, its hits — and the
 * memories about the query's entities, which the graph stage adds — are read and measured by
 * their words, so the work left once the vector answers is the vector search's own.
 */
import type { LexicalHit } from '../store/lexical-search.js';
import type { MemoryFilter } from '../store/memory-filter.js';
import type { VectorHit } from '../store/vector-search.js';
import { bm25Of, type Gathered } from './calibrate-search.js';
import { memoriesLedTo } from './graph-recall.js';
import type { PreparedQuery } from './prepare-query.js';
import type { SearchReader } from './search-reader.js';
import type { IndexRanks } from './search-strategy.js';

/** Where and how much one search gathers. */
export interface GatherRequest {
  /** The store, as a view that keeps what it reads (../store/kept/read-view.ts): what is read ahead is found there. */
  store: SearchReader;
  query: PreparedQuery;
  filter: MemoryFilter;
  /** Candidates asked of each index. */
  pool: number;
  /** Whether the vector index may return fewer than `pool` (VectorSearch.searchVector), and the graph adds no memories about the query's entities. */
  bounded: boolean;
  /** More work that needs no vector, started once the full-text search is asked and awaited with the vector (calibrate-search.ts). */
  whileEmbedding?: ((fullText: Promise<LexicalHit[]> | LexicalHit[]) => Promise<unknown> | null) | undefined;
}

/** What the sources returned. */
export interface Candidates extends Gathered {
  lexical: readonly LexicalHit[];
  vector: readonly VectorHit[];
  ranks: IndexRanks;
}

/** Asks both indexes for the query's candidates, reading ahead while the query is embedded. */
export async function gatherCandidates(request: GatherRequest): Promise<Candidates> {
  const { store, query, filter, pool, bounded } = request;
  const options = query.strategy.lexicalOptions(query.vector !== null);
  const fullText = options === null ? ([] as LexicalHit[]) : store.searchLexical(filter, query.text, pool, options);
  const ahead = query.vector === null ? null : readAhead(store, query, filter, bounded, fullText);
  const alongside = request.whileEmbedding?.(fullText) ?? null;
  // Awaited together: any one failing fails the search, and none is left unwatched.
  const [queryVector] = await Promise.all([query.vector, fullText, query.graph, ahead, alongside]);
  const [lexical, vector] = await Promise.all([
    fullText,
    queryVector ? store.searchVector(filter, queryVector, pool, { bounded }) : ([] as VectorHit[]),
  ]);
  return {
    queryVector,
    lexical,
    vector,
    bm25: bm25Of(lexical),
    graph: await query.graph,
    ranks: { lexical: rankOf(lexical), vector: rankOf(vector) },
  };
}

/**
 * Reads and measures, while the query is embedded, what scoring will need once the vector
 * answers: the full-text hits' memories and word signals and, when the search follows the graph,
 * the entities they mention — and the same for the memories about the query's entities, which
 * the graph stage adds (follow-graph.ts; not in a bounded search). `store` and `query.wordsOf`
 * keep them (../store/kept/read-view.ts, word-signals.ts), so the stages after the vector search find them ready.
 */
async function readAhead(
  store: SearchReader,
  query: PreparedQuery,
  filter: MemoryFilter,
  bounded: boolean,
  fullText: Promise<LexicalHit[]> | LexicalHit[],
): Promise<void> {
  const [lexical, graph] = await Promise.all([fullText, query.graph]);
  const about = graph === null || bounded ? [] : await memoriesLedTo(store, filter, graph);
  const ids = [...new Set([...lexical.map((hit) => hit.id), ...about])];
  for (const memory of await store.getMemories(filter.tenant, ids)) query.wordsOf(memory);
  if (graph !== null) await store.listMentionsInMemories(filter.tenant, ids);
}

/** Each hit's place in its index's list, from 1. */
function rankOf(hits: readonly { id: string }[]): Map<string, number> {
  return new Map(hits.map((hit, index) => [hit.id, index + 1]));
}
