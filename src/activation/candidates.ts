/**
 * Gathering hot-lane candidates: one hybrid search per tier (so a large must_remember pool
 * cannot crowd nice_to_have memories out of the candidate list before quotas are applied), or
 * one search across tiers for plain top-k. Kinds with their own context section never compete.
 */
import type { Embedder } from '../embedding/embedder.js';
import type { Kind, Tier } from '../model/memory.js';
import { hybridSearch, type RetrievalSettings, type SearchHit } from '../retrieval/hybrid-search.js';
import type { Store } from '../store/store.js';

/** Kinds shown in their own sections (working set, handoff, scratchpad), never as hot-lane memories. */
export const SECTION_KINDS: readonly Kind[] = ['working_set', 'handoff', 'scratchpad'];

export interface CandidateSearch {
  store: Store;
  embedder: Embedder | null;
  tenant: string;
  scopes: readonly string[] | undefined;
  query: string;
  queryVector: Float32Array | null;
  /** Search each tier on its own (quota policies) or all at once (top-k). */
  perTier: boolean;
  limit: number;
  now: Date;
  retrieval: RetrievalSettings;
}

/** Candidates for `query`, best first within each search; ids are unique. */
export async function searchCandidates(search: CandidateSearch): Promise<SearchHit[]> {
  const tiers: (readonly Tier[] | undefined)[] = search.perTier ? [['must'], ['nice'], ['unknown']] : [undefined];
  const results = await Promise.all(
    tiers.map((only) =>
      hybridSearch({
        store: search.store,
        embedder: search.embedder,
        queryVector: search.queryVector ?? undefined,
        filter: { tenant: search.tenant, scopes: search.scopes, tiers: only, excludeKinds: SECTION_KINDS },
        query: search.query,
        limit: search.limit,
        mode: 'hybrid',
        scopes: search.scopes,
        now: search.now,
        minRelevance: 0,
        settings: search.retrieval,
      }),
    ),
  );
  const seen = new Set<string>();
  return results.flat().filter((hit) => !seen.has(hit.memory.id) && seen.add(hit.memory.id));
}
