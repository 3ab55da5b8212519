/**
 * Word coverage: the share of a query's distinct content words (lightly stemmed) that a text
 * contains. Unlike BM25 it does not depend on the rest of the collection, so it means the same
 * thing for every query and every store size — which is what calibration needs.
 */
import { stem } from '../text/stem.js';
import { contentWords } from '../text/words.js';

/** The stemmed content words of `text`. */
export function stemSet(text: string, maxChars?: number): Set<string> {
  return new Set(contentWords(text, maxChars).map(stem));
}

/** Share of `query`'s words found in `text`, in [0, 1]; 0 for a query with no content words. */
export function coverage(query: ReadonlySet<string>, text: ReadonlySet<string>): number {
  if (query.size === 0) return 0;
  let found = 0;
  for (const word of query) if (text.has(word)) found++;
  return found / query.size;
}
