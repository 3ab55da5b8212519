/**
 * Gathering hot-lane candidates. One hybrid search across tiers draws a wide pool; when that
 * pool is full and a tier with a quota (nice's floor, unknown's wildcard, must's cap) has fewer
 * relevant candidates in it than its quota, that tier is searched on its own as well — so a
 * large must_remember pool cannot crowd nice_to_have memories out before quotas are applied,
 * without paying for three searches on every turn. Kinds with their own context section never compete.
 * The query is prepared once for all of them (retrieval/prepare-query.ts).
 */
import type { Embedder } from '../embedding/embedder.js';
import { INTERNAL_KINDS } from '../model/internal-kinds.js';
import type { Kind, Tier } from '../model/memory.js';
import { type RetrievalSettings, type SearchHit, searchPrepared } from '../retrieval/hybrid-search.js';
import { type PreparedQuery, prepareQuery, withStoreShift } from '../retrieval/prepare-query.js';
import { readView } from '../store/kept/kept-reads.js';
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
  /** The query's embedding, or its promise (see QueryRequest.vector); null without an embedder. */
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
  const store = readView(search.store);
  // The query is prepared once for every tier searched: its embedding, what the graph says about
  // it and its memories' word signals depend on the query, not on the tiers.
  const query = prepareQuery(store, {
    query: search.query,
    mode: 'hybrid',
    settings: search.retrieval,
    embedder: search.embedder,
    vector: search.queryVector ?? undefined,
    tenant: search.tenant,
    now: search.now,
    scopes: search.scopes,
  });
  const run = (tiers: readonly Tier[] | undefined, limit: number, on: PreparedQuery) =>
    searchPrepared({
      // A tier's own search asks whether anything of that tier is close, not for all of it.
      bounded: tiers !== undefined,
      store,
      query: on,
      filter: { tenant: search.tenant, scopes: search.scopes, tiers, excludeKinds: SECTION_KINDS },
      limit,
      minRelevance: 0,
    });
  const pool = await run(undefined, search.limit, query);
  if (pool.length < search.limit) return pool; // the pool holds every match: nothing was crowded out
  const short = (['must', 'nice', 'unknown'] as const).filter(
    (tier) => pool.filter((hit) => hit.memory.tier === tier && hit.relevance >= search.threshold).length < search.wanted[tier],
  );
  // The tier searches stand on the wide search's calibration, so every candidate stands on one scale.
  const onPool = pool[0] === undefined ? query : withStoreShift(query, pool[0].storeShift);
  const extra = await Promise.all(short.map((tier) => run([tier], TIER_SEARCH_LIMIT, onPool)));
  const seen = new Set<string>();
  return [...pool, ...extra.flat()].filter((hit) => !seen.has(hit.memory.id) && seen.add(hit.memory.id));
}
