/**
 * The words a PostgreSQL store indexes and searches, normalised by Engram rather than by the
 * server's parser, so they are the words FTS5's `unicode61 remove_diacritics 2` tokenizer sees:
 * lower-case runs of letters and digits, accents removed. PostgreSQL then only stems them (the
 * `engram_text` configuration of migration 1). Each memory field becomes one weight of the
 * `tsvector` (A text, B abstract, C tags, D context), as FTS5 keeps one column per field.
 */
import type { Memory } from '../../model/memory.js';

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

/** The four fields of a memory as space-separated words, and how many words they hold in all. */
export function searchFields(memory: Memory): { fields: [string, string, string, string]; length: number } {
  const parts = [memory.text, memory.abstract ?? '', JSON.stringify(memory.tags), memory.context ?? ''].map(indexWords);
  return {
    fields: parts.map((words) => words.join(' ')) as [string, string, string, string],
    length: parts.reduce((sum, words) => sum + words.length, 0),
  };
}

/** SQL of the `tsvector` of four field parameters (placeholders in weight order). */
export function searchVectorSql(placeholders: readonly string[]): string {
  return placeholders
    .map((p, i) => `setweight(to_tsvector('engram_text', ${p}), '${FIELD_WEIGHTS[i] as FieldWeight}')`)
    .join(' || ');
}
