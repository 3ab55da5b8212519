/**
 * Reads what a person types into a full-text query: plain words, "quoted phrases" and
 * prefix* words. Anything else — operators, parentheses, stray quotes, emoji, NUL bytes — is
 * just text, so no query can be malformed.
 */
import { MAX_WORD_SCAN_CHARS, STOP_WORDS, words } from './words.js';

/** At most this many terms, phrases and prefixes in all go into one query. */
const MAX_PARTS = 64;
/** A prefix shorter than this would match half the index. */
const MIN_PREFIX = 2;

export interface LexicalQuery {
  /** Single words, stop words removed (unless the query has nothing else). */
  terms: string[];
  /** Quoted sequences of two or more words, matched as phrases. */
  phrases: string[][];
  /** Words written with a trailing `*`, matched as prefixes. */
  prefixes: string[];
}

/** The parts of `text`, or null when it has no searchable word. */
export function parseLexicalQuery(text: string): LexicalQuery | null {
  const source = text.slice(0, MAX_WORD_SCAN_CHARS);
  const phrases: string[][] = [];
  const prefixes: string[] = [];
  // Balanced double quotes enclose phrases; an unmatched quote is an ordinary character.
  const outside = source.replace(/"([^"]*)"/g, (_, inner: string) => {
    const parts = words(inner);
    if (parts.length > 1) phrases.push(parts);
    return parts.length === 1 ? ` ${parts[0]} ` : ' ';
  });
  const rest = outside.replace(/([\p{L}\p{N}]+)\*/gu, (match, word: string) => {
    if (word.length < MIN_PREFIX) return ` ${word} `;
    prefixes.push(word.toLowerCase());
    return ' ';
  });
  const all = words(rest);
  const content = all.filter((word) => !STOP_WORDS.has(word));
  const terms = content.length > 0 || phrases.length > 0 || prefixes.length > 0 ? content : all;
  const query = {
    terms: [...new Set(terms)].slice(0, MAX_PARTS),
    phrases: phrases.slice(0, MAX_PARTS),
    prefixes: [...new Set(prefixes)].slice(0, MAX_PARTS),
  };
  return query.terms.length + query.phrases.length + query.prefixes.length === 0 ? null : query;
}
