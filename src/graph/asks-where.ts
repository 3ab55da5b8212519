/**
 * Whether a question asks for a place ("Where was Elise on 31 Dec 2023?", "Which country did
 * she visit?", "In what city does Kevin study?"). Its answer is a memory that names one, as the
 * answer to a question about time carries a date (graph-recall.ts). Plain text matching, no
 * parser: recall reads it on every query, so it must not load the NLP library.
 */
// "state" and "states" but not "state of mind" or "state of affairs".
const PLACE_WORDS = 'city|cities|country|countries|states?(?!\\s+of\\b)|town|towns|place|places|destination|destinations';
const ASKS_WHERE = new RegExp(`^\\s*(?:where\\b|(?:(?:in|to|from)\\s+)?(?:what|which)\\s+(?:${PLACE_WORDS})\\b)`, 'i');

/** True when `question` asks for a place. */
export function asksWhere(question: string): boolean {
  return ASKS_WHERE.test(question);
}
