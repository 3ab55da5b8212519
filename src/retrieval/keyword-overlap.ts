/**
 * Seed 004's keyword-overlap similarity: lower-case, strip punctuation, drop filler words,
 * then the number of shared words divided by the size of the larger word set. Works offline
 * and explains itself; misses synonyms ("fetch web pages" vs "retrieve HTML content" → 0).
 */
import { contentWords } from '../text/words.js';

/** The distinct content words of `text`, as seed 004 tokenises it. */
export function keywordSet(text: string): Set<string> {
  return new Set(contentWords(text));
}

/** Shared words ÷ the larger word set, in [0, 1]; 0 when either side has no words. */
export function keywordOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const larger = Math.max(a.size, b.size);
  if (larger === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / larger;
}
