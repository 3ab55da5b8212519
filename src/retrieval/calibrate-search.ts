/**
 * The calibration stage: what the store's own calibration takes off one search's relevance
 * (store-calibration.ts). The query's words and graph are scored against the store's sample
 * while the query is embedded (they need no vector); once the vector is in, only its dot products
 * with the sample are left. A query on a known shift (prepare-query.ts `withStoreShift`) takes it.
 */
import type { LexicalHit } from '../store/lexical-search.js';
import type { CalibrationSample } from './calibration-sample.js';
import type { QueryGraph } from './graph-recall.js';
import type { PreparedQuery } from './prepare-query.js';
import { NO_SHIFT, sampleShift, type SampleWordScores, sampleWordScores, type StoreShift } from './store-calibration.js';

/** What the stage needs of the gathered candidates once the vector is in. */
export interface Gathered {
  queryVector: Float32Array | null;
  /** The full-text index's BM25 by memory id. */
  bm25: ReadonlyMap<string, number>;
  graph: QueryGraph | null;
}

/** One search's calibration. */
export interface SearchCalibration {
  /**
   * Scores the query's words and graph against the sample once the full-text hits and the graph
   * are read; null when there is nothing to score. Call it before the vector is awaited.
   */
  ahead(fullText: Promise<LexicalHit[]> | LexicalHit[]): Promise<SampleWordScores | null> | null;
  /** The store's shift for this search, once the vector is in. */
  shift(gathered: Gathered): Promise<StoreShift>;
}

/** The calibration of one search of `query`. */
export function calibrateSearch(query: PreparedQuery): SearchCalibration {
  const { calibration } = query;
  if (calibration.kind === 'fixed') {
    return { ahead: () => null, shift: async () => ({ ...NO_SHIFT, shift: calibration.shift }) };
  }
  const { sample } = calibration;
  const { lexicalWeight } = query.settings;
  const { stems } = query.words;
  let scored: Promise<SampleWordScores | null> | null = null;
  return {
    ahead(fullText) {
      if (sample === null) return null;
      scored = sampleWordsAhead(sample, fullText, query.graph, stems, lexicalWeight);
      return scored;
    },
    async shift({ queryVector, bm25, graph }) {
      const sampled = await sample;
      if (queryVector === null || sampled === null) return NO_SHIFT;
      const { readable } = query;
      return sampleShift(sampled, { stems, vector: queryVector, readable, bm25, graph, lexicalWeight }, await scored);
    },
  };
}

/** The query's word and graph scores against the sample, measured once the full-text hits and the graph are read. */
async function sampleWordsAhead(
  sampling: Promise<CalibrationSample>,
  fullText: Promise<LexicalHit[]> | LexicalHit[],
  graphRead: PreparedQuery['graph'],
  stems: ReadonlySet<string>,
  lexicalWeight: number,
): Promise<SampleWordScores | null> {
  const [sample, lexical, graph] = await Promise.all([sampling, fullText, graphRead]);
  return sampleWordScores(sample, { stems, bm25: bm25Of(lexical), graph, lexicalWeight });
}

/** The full-text hits' BM25 by memory id. */
export function bm25Of(lexical: readonly LexicalHit[]): Map<string, number> {
  return new Map(lexical.map((hit) => [hit.id, hit.score]));
}
