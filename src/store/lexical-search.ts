/**
 * The lexical search part of a Store: full-text search over the words of the memories that
 * the memories part wrote.
 */
import type { MemoryFilter } from './memory-filter.js';

/** A lexical hit: higher `score` is better (BM25, sign flipped). */
export interface LexicalHit {
  id: string;
  score: number;
}

/** Options of a lexical search. */
export interface LexicalSearchOptions {
  /**
   * Return nothing when every query word is common in a big store.
   * @default false
   */
  skipIfOnlyCommon?: boolean;
}

/** Full-text search over memories. */
export interface LexicalSearch {
  /**
   * Full-text search over text, abstract, tags and context; any user text is safe as `query`.
   * With `skipIfOnlyCommon`, a query whose words all appear in a large share of a big store
   * returns nothing rather than scoring most of the store (callers with vectors do this: such
   * words find nothing particular).
   */
  searchLexical(filter: MemoryFilter, query: string, limit: number, options?: LexicalSearchOptions): Promise<LexicalHit[]>;
}
