/**
 * The names a query might use for an entity: every run of one to four words, in order, so
 * "What did Maya Chen say about the Tate Modern?" offers "maya chen" and "tate modern" as well
 * as each word. A lone function word ("what", "the") names nothing and is left out; a
 * possessive "s" is dropped, so "Maya's" offers "maya". The store matches these against entity
 * names and aliases, so recall finds the entities a query names without parsing it.
 */
import { STOP_WORDS, words } from '../text/words.js';

/** Longest name tried, in words. */
const MAX_NAME_WORDS = 4;
/** Words of a query read for names: a pasted page costs no more than a long question. */
const MAX_QUERY_WORDS = 200;

/** The candidate names in `query`, each once, shortest runs first. */
export function queryNames(query: string): string[] {
  const tokens = words(query)
    .filter((word) => word !== 's')
    .slice(0, MAX_QUERY_WORDS);
  const names = new Set<string>();
  for (let length = 1; length <= MAX_NAME_WORDS; length++) {
    for (let start = 0; start + length <= tokens.length; start++) {
      const run = tokens.slice(start, start + length);
      if (length === 1 && STOP_WORDS.has(run[0] as string)) continue;
      names.add(run.join(' '));
    }
  }
  return [...names];
}
