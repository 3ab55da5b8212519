/**
 * Plain search: lexical (FTS5 BM25) and vector hits merged with a fixed weighting. A first cut
 * that finds memories by their words and by meaning; the hybrid-retrieval work replaces it with
 * calibrated fusion.
 */
import type { Embedder } from '../embedding/embedder.js';
import type { Memory } from '../model/memory.js';
import type { MemoryFilter, Store } from '../store/store.js';

/** Which signals rank the results. */
export const SEARCH_MODES = ['hybrid', 'bm25', 'dense', 'keyword'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** One search result and the parts of its score. */
export interface SearchHit {
  memory: Memory;
  /** Combined relevance in [0, 1]; higher is better. */
  score: number;
  /** BM25 relative to the best lexical hit of this query, in [0, 1]; null if no word matched. */
  lexical: number | null;
  /** Cosine similarity to the query; null without an embedder or outside the neighbours looked at. */
  vector: number | null;
}

/** Weight of the lexical part; the rest goes to vector similarity. */
const LEXICAL_WEIGHT = 0.55;
/** Candidates drawn from each index per result asked for. */
const OVERSAMPLE = 5;

/** Finds up to `limit` memories matching `query` within `filter`, best first. */
export async function plainSearch(options: {
  store: Store;
  embedder: Embedder | null;
  filter: MemoryFilter;
  query: string;
  limit: number;
  mode: SearchMode;
}): Promise<SearchHit[]> {
  const { store, filter, query, limit, mode } = options;
  const embedder = mode === 'bm25' || mode === 'keyword' ? null : options.embedder;
  const pool = limit * OVERSAMPLE;
  const [lexicalHits, vectorHits] = await Promise.all([
    mode === 'dense' ? Promise.resolve([]) : store.searchLexical(filter, query, pool),
    embedder
      ? embedder.embed([query]).then(([vector]) => store.searchVector(filter, vector as Float32Array, pool))
      : Promise.resolve([]),
  ]);
  const best = lexicalHits[0]?.score ?? 0;
  const parts = new Map<string, { lexical: number | null; vector: number | null }>();
  for (const hit of lexicalHits) parts.set(hit.id, { lexical: best > 0 ? hit.score / best : 1, vector: null });
  for (const hit of vectorHits) {
    const entry = parts.get(hit.id) ?? { lexical: null, vector: null };
    entry.vector = Math.max(0, hit.similarity);
    parts.set(hit.id, entry);
  }
  const lexicalWeight = embedder ? LEXICAL_WEIGHT : 1;
  const ranked = [...parts.entries()]
    .map(([id, { lexical, vector }]) => ({
      id,
      lexical,
      vector,
      score: lexicalWeight * (lexical ?? 0) + (1 - lexicalWeight) * (vector ?? 0),
    }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    .slice(0, limit);
  const memories = await store.getMemories(
    filter.tenant,
    ranked.map((hit) => hit.id),
  );
  const byId = new Map(memories.map((memory) => [memory.id, memory]));
  return ranked.flatMap((hit) => {
    const memory = byId.get(hit.id);
    return memory ? [{ memory, score: hit.score, lexical: hit.lexical, vector: hit.vector }] : [];
  });
}
