/**
 * Whether a question asks when something happened ("When did Maya move?", "What year…",
 * "How long ago…"). Plain text matching, no parser: recall reads it on every query, so it must
 * not load the NLP library.
 */
const ASKS_WHEN =
  /^\s*(?:when\b|what\s+(?:day|date|time|year|month|week)\b|how\s+long\s+ago\b|which\s+(?:day|date|year|month|week)\b)/i;

/** True when `question` asks for a time. */
export function asksWhen(question: string): boolean {
  return ASKS_WHEN.test(question);
}
