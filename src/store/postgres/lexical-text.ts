/**
 * The words a PostgreSQL store indexes and searches, normalised by Engram rather than by the
 * server's parser, so they are the words FTS5's `unicode61 remove_diacritics 2` tokenizer sees:
 * lower-case runs of letters and digits, accents removed. PostgreSQL then only stems them (the
 * `engram_text` configuration of migration 1). Each memory field becomes one weight of the
 * `tsvector` (A text, B abstract, C tags, D context), as FTS5 keeps one column per field. The CJK
 * bigrams and emoji of all four (text/index-terms.ts), which FTS5 keeps in a fifth column weighted
 * as the text, follow as lexemes of weight A written by Engram, unstemmed, one position apart from
 * the fields' words so no phrase runs from one into the other.
 */
import type { Memory } from '../../model/memory.js';
import { segmentTerms } from '../../text/index-terms.js';

/** The weight letter of each searched field, in FTS5's column order. */
export const FIELD_WEIGHTS = ['A', 'B', 'C', 'D'] as const;
export type FieldWeight = (typeof FIELD_WEIGHTS)[number];

/** BM25 weight of each field (text counts double), as the SQLite store ranks them. */
export const FIELD_BM25_WEIGHT: Record<FieldWeight, number> = { A: 1, B: 0.5, C: 0.5, D: 0.5 };

/** The words of `text`, lower-cased and without diacritics. */
export function indexWords(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The four fields of a memory as space-separated words, its segment lexemes, and how many words they hold in all. */
export function searchFields(memory: Memory): { fields: [string, string, string, string, string]; length: number } {
  const tags = JSON.stringify(memory.tags);
  const parts = [memory.text, memory.abstract ?? '', tags, memory.context ?? ''].map(indexWords);
  const segments = segmentTerms([memory.text, memory.abstract, tags, memory.context]);
  return {
    fields: [...parts.map((words) => words.join(' ')), segmentLexemes(segments)] as [string, string, string, string, string],
    length: parts.reduce((sum, words) => sum + words.length, segments.length),
  };
}

/**
 * The `tsvector` text of the segment terms: each quoted, at positions from 2 on, so that after
 * the fields' words (which `||` shifts them past) one position is left between the two.
 */
function segmentLexemes(terms: readonly string[]): string {
  return terms
    .map((term, i) => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}':${Math.min(i + 2, MAX_POSITION)}`)
    .join(' ');
}

/** PostgreSQL keeps positions up to this; it holds later ones here too. */
const MAX_POSITION = 16_383;

/** SQL of the `tsvector` of the four field parameters and the segment lexemes' (placeholders in that order). */
export function searchVectorSql(placeholders: readonly string[]): string {
  const fields = placeholders.slice(0, 4);
  const segments = placeholders[4] as string;
  return [
    ...fields.map((p, i) => `setweight(to_tsvector('engram_text', ${p}), '${FIELD_WEIGHTS[i] as FieldWeight}')`),
    `setweight(${segments}::tsvector, 'A')`,
  ].join(' || ');
}
