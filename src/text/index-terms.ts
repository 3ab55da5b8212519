/**
 * The words a full-text index holds apart from the ones its tokenizer finds itself: the CJK
 * bigrams and emoji of a memory's fields (segmented-words.ts), in their index form. SQLite keeps
 * them in a column of their own and PostgreSQL as lexemes after the fields', both from this one
 * list, so the two backends index, count and score the same words.
 */
import { hasSegmentedWords, indexTerm, isSegmentWord } from './segmented-words.js';
import { words } from './words.js';

/**
 * The index forms of the CJK bigrams and emoji in `fields`, in order, each field read whole;
 * empty for text without such characters (an English memory has none).
 */
export function segmentTerms(fields: readonly (string | null)[]): string[] {
  const terms: string[] = [];
  for (const field of fields) {
    if (field === null || !hasSegmentedWords(field)) continue;
    for (const word of words(field, Infinity)) if (isSegmentWord(word)) terms.push(indexTerm(word));
  }
  return terms;
}
