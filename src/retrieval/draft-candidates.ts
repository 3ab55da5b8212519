/**
 * Drafting candidates: the memories the sources found, read and measured against the query —
 * BM25, word coverage, keyword overlap, the cosine and the factors — with the mode's raw score.
 * The graph stage may add to a draft; the ranking stage turns drafts into hits.
 */
import type { Memory } from '../model/memory.js';
import type { VectorHit } from '../store/vector-search.js';
import type { ScoreFactors } from './factors.js';
import type { GraphDraft } from './follow-graph.js';
import { countedCosine } from './readable-share.js';
import type { SearchSignals } from './search-hit.js';
import type { SearchReader } from './search-reader.js';
import type { WordMeasure } from './word-signals.js';

/** A candidate being scored: its signals and factors, the raw score before calibration and what the graph added to it. */
export interface Draft extends GraphDraft {
  signals: SearchSignals;
  factors: ScoreFactors;
}

/** Reads and scores memories by id, in the order of `ids`; a memory that is gone is left out. */
export type DraftMemories = (ids: readonly string[]) => Promise<Draft[]>;

/** What drafting reads: the store, what the sources returned, and how the mode scores. */
export interface DraftSources {
  store: Pick<SearchReader, 'getMemories' | 'vectorSimilarities'>;
  tenant: string;
  /** The query's vector; null when the search has none. */
  queryVector: Float32Array | null;
  /** The vector index's hits: their cosines are not read again. */
  vector: readonly VectorHit[];
  /** The full-text index's BM25 by memory id. */
  bm25: ReadonlyMap<string, number>;
  /** The share of the query the embedder reads (readable-share.ts). */
  readable: number;
  wordsOf: WordMeasure;
  /** Whether cosines are read for memories the vector index did not return (hybrid search's). */
  readsMissingCosines: boolean;
  /** The mode's relevance before calibration, from a draft's signals. */
  raw: (signals: SearchSignals) => number;
  /** Seed 001's retrieval cooldown: a multiplier per memory. 1 for every memory when omitted. */
  cooldown?: ((memory: Memory) => number) | undefined;
}

/** Drafts memories for one search; each cosine is read once across calls. */
export function draftCandidates(sources: DraftSources): DraftMemories {
  const { store, tenant, queryVector, bm25, readable, wordsOf, raw, cooldown } = sources;
  const cosines = new Map(sources.vector.map((hit) => [hit.id, hit.similarity]));
  return async (ids) => {
    const memories = await store.getMemories(tenant, ids);
    const missing = queryVector && sources.readsMissingCosines ? ids.filter((id) => !cosines.has(id)) : [];
    if (queryVector && missing.length > 0) {
      for (const [id, similarity] of await store.vectorSimilarities(tenant, missing, queryVector)) cosines.set(id, similarity);
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
      const factors: ScoreFactors = { ...measured.factors, cooldown: cooldown?.(memory) ?? 1 };
      return { memory, signals, factors, raw: raw(signals), graph: null };
    });
  };
}
