/**
 * How much of a text asks rather than tells: the share of its sentences that are questions. A
 * remembered question ("What's her name?") shares the words of a later question about the same
 * thing, yet the answer is in what was said, not in what was asked; the fused order of a search
 * (retrieval/fused-rank.ts) weighs this share.
 */

/** Characters read: a long text is judged by its opening, as words() reads it. */
const MAX_CHARS = 20_000;

/** Closing quotes and brackets that may follow a sentence's last mark. */
const CLOSERS = /["'”’)\]]+$/u;

/**
 * The share of `text`'s sentences that end in a question mark, in [0, 1]: sentences end at `.`,
 * `!` or `?` (a closing quote or bracket may follow) before whitespace; 0 for a text with no words.
 */
export function questionShare(text: string): number {
  const sentences = text
    .slice(0, MAX_CHARS)
    .split(/(?<=[.!?]["'”’)\]]?)\s+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
  if (sentences.length === 0) return 0;
  const questions = sentences.filter((sentence) => sentence.replace(CLOSERS, '').endsWith('?')).length;
  return questions / sentences.length;
}
