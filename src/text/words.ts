/**
 * Words as Engram's lexical parts see them: lower-case runs of letters and digits, with
 * English function words set aside; Chinese, Japanese and Korean runs as character bigrams and
 * each emoji a word (segmented-words.ts). Shared by full-text search, keyword overlap and the
 * benchmarks, so "a word" means the same thing everywhere.
 */
import { hasSegmentedWords, splitSegmented } from './segmented-words.js';

/** English function words that carry no topic; dropped from queries unless nothing else is left. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves s t don'
  ).split(' '),
);

/** Only this much of a text is read for words: a 100 kB query costs no more than a long paragraph. */
export const MAX_WORD_SCAN_CHARS = 4_000;

/**
 * The words of `text`: lower-case runs of letters and digits (apostrophes split words), a run
 * of Han, Hiragana, Katakana or Hangul as its overlapping bigrams ("日本語" → "日本", "本語"),
 * and each emoji or pictographic symbol a word of its own.
 */
export function words(text: string, maxChars = MAX_WORD_SCAN_CHARS): string[] {
  const source = text.slice(0, maxChars).toLowerCase();
  if (hasSegmentedWords(source)) return splitSegmented(source);
  return source.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The words of `text` that are not stop words. */
export function contentWords(text: string, maxChars = MAX_WORD_SCAN_CHARS): string[] {
  return words(text, maxChars).filter((word) => !STOP_WORDS.has(word));
}
