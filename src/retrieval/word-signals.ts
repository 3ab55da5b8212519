/**
 * What a search measures of a memory from words alone — word coverage, seed 004's keyword
 * overlap and the recency, scope and exact-match factors — which needs no vector. A search
 * measures each memory once, and measures the full-text hits while the query is still being
 * embedded (hybrid-search.ts), so the work left after the vector is the vector's own.
 */
import type { Memory } from '../model/memory.js';
import { parseLexicalQuery } from '../text/lexical-query.js';
import { stem } from '../text/stem.js';
import { STOP_WORDS, words } from '../text/words.js';
import { coverage, stemSet } from './coverage.js';
import { computeFactors, exactPhrases, type FactorSettings, type ScoreFactors } from './factors.js';
import { keywordOverlap, keywordSet } from './keyword-overlap.js';

/** Characters of a memory (or its context) read for word signals. */
export const MAX_MEMORY_CHARS = 20_000;

/** A memory's word signals for one query. */
export interface WordSignals {
  /** Share of the query's content words in the memory (with its context, when it has one). */
  coverage: number;
  /** Seed 004's keyword overlap: shared words ÷ the larger word set. */
  keyword: number;
  /** Recency, scope and exact match; the cooldown is the search's to set. */
  factors: Readonly<Omit<ScoreFactors, 'cooldown'>>;
}

/** The query's side of the word signals, and what the factors depend on. */
export interface WordQuery {
  stems: ReadonlySet<string>;
  keywords: ReadonlySet<string>;
  phrases: readonly string[];
  now: Date;
  scopes: readonly string[] | undefined;
  settings: FactorSettings;
}

/** Measures a memory's word signals, once: asked again, it gives what it measured. */
export type WordMeasure = (memory: Memory) => WordSignals;

/** The query's side of the word signals for `query`, seen from `scopes` at `now`. */
export function wordQueryOf(
  query: string,
  context: { now: Date; scopes: readonly string[] | undefined; settings: FactorSettings },
): WordQuery {
  const phrases = exactPhrases(parseLexicalQuery(query), words(query));
  return { stems: stemSet(query), keywords: keywordSet(query), phrases, ...context };
}

/** Measures memories for `query`, each once. */
export function wordSignalsFor(query: WordQuery): WordMeasure {
  const measured = new Map<string, WordSignals>();
  return (memory) => {
    let signals = measured.get(memory.id);
    if (signals === undefined) measured.set(memory.id, (signals = measureWords(query, memory)));
    return signals;
  };
}

function measureWords(query: WordQuery, memory: Memory): WordSignals {
  // Each text is split into words once; every word signal is read from that split.
  const memoryWords = words(memory.text, MAX_MEMORY_CHARS);
  const content = memoryWords.filter((word) => !STOP_WORDS.has(word));
  const { recency, scope, exact } = computeFactors(memory, memoryWords, query);
  return {
    coverage: memoryCoverage(query.stems, content, memory.context),
    keyword: keywordOverlap(query.keywords, new Set(content)),
    factors: { recency, scope, exact },
  };
}

/** Coverage of the memory alone, averaged with coverage of memory and context when it has context. */
function memoryCoverage(query: ReadonlySet<string>, content: readonly string[], context: string | null): number {
  const own = new Set(content.map(stem));
  const alone = coverage(query, own);
  if (context === null) return alone;
  const withContext = stemSet(context, MAX_MEMORY_CHARS);
  for (const word of own) withContext.add(word);
  return (alone + coverage(query, withContext)) / 2;
}
