/**
 * Gathering hot-lane candidates. One hybrid search across tiers draws a wide pool; when that
 * pool is full and a tier with a quota (nice's floor, unknown's wildcard, must's cap) has fewer
 * relevant candidates in it than its quota, that tier is searched on its own as well — so a
 * large must_remember pool cannot crowd nice_to_have memories out before quotas are applied,
 * without paying for three searches on every turn. Kinds with their own context section never compete.
 * What the knowledge graph says about the query is read once for all of them.
 */
import type { Embedder } from '../embedding/embedder.js';
import { INTERNAL_KINDS } from '../model/internal-kinds.js';
import type { Kind, Tier } from '../model/memory.js';
import { readQueryGraph } from '../retrieval/graph-recall.js';
import { followsGraph, hybridSearch, type RetrievalSettings, type SearchHit } from '../retrieval/hybrid-search.js';
import { readOnce } from '../retrieval/read-once.js';
import { wordQueryOf, wordSignalsFor } from '../retrieval/word-signals.js';
import type { Store } from '../store/store.js';

/**
 * Kinds shown in their own sections (working set, handoff, scratchpad), never as hot-lane
 * memories: Engram's internal records (`model/internal-kinds.ts`).
 */
export const SECTION_KINDS: readonly Kind[] = INTERNAL_KINDS;

/** Candidates a tier-only search adds. */
const TIER_SEARCH_LIMIT = 20;

export interface CandidateSearch {
  store: Store;
  embedder: Embedder | null;
  tenant: string;
  scopes: readonly string[] | undefined;
  query: string;
  /** The query's embedding, or its promise (see HybridSearchRequest.queryVector); null without an embedder. */
  queryVector: Float32Array | Promise<Float32Array> | null;
  /** The pool drawn across tiers. */
  limit: number;
  /** Relevant candidates each tier should have before its own search is skipped (0: never searched alone). */
  wanted: Readonly<Record<Tier, number>>;
  /** Relevance at which a candidate counts towards `wanted`. */
  threshold: number;
  now: Date;
  retrieval: RetrievalSettings;
}

/** Candidates for `query`; ids are unique. */
export async function searchCandidates(search: CandidateSearch): Promise<SearchHit[]> {
  // The searches below draft many of the same memories: each is read once.
  const store = readOnce(search.store);
  // It depends on the tenant and the query alone, not on the tiers searched.
  const queryGraph = followsGraph('hybrid', search.retrieval) ? await readQueryGraph(store, search.tenant, search.query) : null;
  // A memory's word signals depend on the query, not on the tiers either: two searches drafting it measure it once.
  const wordSignals = wordSignalsFor(
    wordQueryOf(search.query, { now: search.now, scopes: search.scopes, settings: search.retrieval.factors }),
    search.retrieval.memoryWords,
  );
  const run = (tiers: readonly Tier[] | undefined, limit: number, storeShift?: number) =>
    hybridSearch({
      storeShift,
      // A tier's own search asks whether anything of that tier is close, not for all of it.
      bounded: tiers !== undefined,
      store,
      embedder: search.embedder,
      queryVector: search.queryVector ?? undefined,
      queryGraph,
      wordSignals,
      filter: { tenant: search.tenant, scopes: search.scopes, tiers, excludeKinds: SECTION_KINDS },
      query: search.query,
      limit,
      mode: 'hybrid',
      scopes: search.scopes,
      now: search.now,
      minRelevance: 0,
      settings: search.retrieval,
    });
  const pool = await run(undefined, search.limit);
  if (pool.length < search.limit) return pool; // the pool holds every match: nothing was crowded out
  const short = (['must', 'nice', 'unknown'] as const).filter(
    (tier) => pool.filter((hit) => hit.memory.tier === tier && hit.relevance >= search.threshold).length < search.wanted[tier],
  );
  // The tier searches stand on the wide search's calibration (see HybridSearchRequest.storeShift).
  const extra = await Promise.all(short.map((tier) => run([tier], TIER_SEARCH_LIMIT, pool[0]?.storeShift)));
  const seen = new Set<string>();
  return [...pool, ...extra.flat()].filter((hit) => !seen.has(hit.memory.id) && seen.add(hit.memory.id));
}
